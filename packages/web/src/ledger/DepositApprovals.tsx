import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import toast from "react-hot-toast";
import { approvalsApi, type DepositApproval } from "../api/approvals";
import { errorMessage } from "../api/errors";
import { secondaryButtonClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { DecisionDialog, type Decision } from "../payments/DecisionDialog";
import { Loaded } from "../rails/Loaded";
import { useSession } from "../session/hooks";
import { awaitsSecondApprover, WAITING_FOR_SECOND_APPROVER } from "./depositApproval";
import { formatDateTime } from "./format";
import { useInvalidateLedger } from "./hooks";
import { cardClass, dangerButtonClass, sectionTitleClass, smallPrimaryButtonClass, subtleTextClass } from "./ui";

/** The thresholds change rarely: asked once a minute at most. */
const THRESHOLDS_STALE_MS = 60_000;
const QUEUE_POLL_MS = 15_000;

const thresholdsKey = ["approvals", "thresholds"] as const;
const queueKey = (userId: string) => ["approvals", userId, "deposits"] as const;

export function useApprovalThresholds() {
  return useQuery({
    queryKey: thresholdsKey,
    queryFn: ({ signal }) => approvalsApi.thresholds(signal),
    staleTime: THRESHOLDS_STALE_MS,
    retry: false,
  });
}

/**
 * A draft row's action: the row's own Approve, unless the deposit is above the four-eyes
 * threshold, which an administrator other than its owner approves: the row then says it waits.
 */
export function SecondApproverGate({
  transaction,
  children,
}: {
  transaction: { type: string; status: string | null | undefined; total_amount_minor: number; currency: string };
  children: ReactNode;
}) {
  const thresholds = useApprovalThresholds();
  if (!awaitsSecondApprover(transaction, thresholds.data)) return <>{children}</>;
  return <span className="text-sm font-medium text-amber-800 dark:text-amber-200">{WAITING_FOR_SECOND_APPROVER}</span>;
}

const describe = (item: DepositApproval) =>
  `deposit of ${formatMoney(item.amount, item.currency)} into ${item.account_name}`;

/**
 * Administrators' queue of deposits above the threshold (GET /api/v1/approvals/deposits), oldest
 * first, with Approve and Reject (each with a reason). A deposit the administrator made, or into
 * their own account, is listed but not decidable. Shown to administrators only.
 */
export function DepositApprovalQueue() {
  return useSession()?.user.role === "admin" ? <Queue /> : null;
}

function Queue() {
  const userId = useSession()?.user.id ?? "signed-out";
  const queryClient = useQueryClient();
  const invalidateLedger = useInvalidateLedger();
  const queue = useQuery({
    queryKey: queueKey(userId),
    queryFn: ({ signal }) => approvalsApi.depositQueue(signal),
    refetchInterval: QUEUE_POLL_MS,
    retry: false,
  });
  const [deciding, setDeciding] = useState<{ item: DepositApproval; decision: Decision } | null>(null);
  const decide = useMutation({
    mutationFn: ({ item, decision, reason }: { item: DepositApproval; decision: Decision; reason: string }) =>
      approvalsApi.decideDeposit(item.journal_id, { decision, reason }),
    onSuccess: (decided) => {
      toast.success(
        decided.decision === "approve" ? "Deposit approved and posted" : "Deposit rejected: its draft is voided",
      );
      setDeciding(null);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queueKey(userId) });
      void invalidateLedger();
    },
  });

  return (
    <section aria-labelledby="deposit-approvals-title" className={`${cardClass} mt-8 space-y-4`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="deposit-approvals-title" className={sectionTitleClass}>
          Deposits awaiting your approval{" "}
          <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 align-middle text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            Administrators
          </span>
        </h2>
        <button type="button" className={`${secondaryButtonClass} !px-3 !py-1`} onClick={() => void queue.refetch()}>
          Refresh
        </button>
      </div>
      <p className={subtleTextClass}>
        Deposits above the four-eyes threshold wait here: an administrator other than the person who made them approves
        or rejects each, with a reason.
      </p>
      <Loaded query={queue} what="the deposits awaiting approval">
        {({ items, hasMore }) =>
          items.length === 0 ? (
            <p className={subtleTextClass}>No deposit is waiting for approval.</p>
          ) : (
            <>
              <ul aria-label="Deposits awaiting approval" className="divide-y divide-slate-200 dark:divide-slate-800">
                {items.map((item) => (
                  <li
                    key={item.journal_id}
                    className="flex min-w-0 flex-wrap items-start justify-between gap-3 py-3"
                    data-journal-id={item.journal_id}
                  >
                    <div className="min-w-0 flex-1 space-y-1">
                      <p className="font-semibold text-slate-900 dark:text-white">
                        {formatMoney(item.amount, item.currency)} into {item.account_name}
                      </p>
                      <p className="text-sm text-slate-700 dark:text-slate-200">
                        {item.description} · by {item.created_by?.name || "unknown"} · {formatDateTime(item.created_at)}{" "}
                        · threshold {formatMoney(item.threshold, item.currency)}
                      </p>
                    </div>
                    {item.can_decide ? (
                      <div className="flex shrink-0 gap-2">
                        <button
                          type="button"
                          className={smallPrimaryButtonClass}
                          onClick={() => setDeciding({ item, decision: "approve" })}
                          aria-label={`Approve ${describe(item)}`}
                        >
                          Approve
                        </button>
                        <button
                          type="button"
                          className={dangerButtonClass}
                          onClick={() => setDeciding({ item, decision: "reject" })}
                          aria-label={`Reject ${describe(item)}`}
                        >
                          Reject
                        </button>
                      </div>
                    ) : (
                      <p className={`max-w-xs ${subtleTextClass}`}>{item.cannot_decide_reason}</p>
                    )}
                  </li>
                ))}
              </ul>
              {hasMore && <p className={subtleTextClass}>More deposits are waiting: decide these to see the rest.</p>}
            </>
          )
        }
      </Loaded>
      {deciding && (
        <DecisionDialog
          decision={deciding.decision}
          subject={describe(deciding.item)}
          busy={decide.isPending}
          error={decide.isError ? errorMessage(decide.error, "The decision was not saved") : null}
          onConfirm={(reason) => decide.mutate({ item: deciding.item, decision: deciding.decision, reason })}
          onCancel={() => {
            setDeciding(null);
            decide.reset();
          }}
        >
          <p>
            {deciding.decision === "approve"
              ? "Approving posts the deposit: its amount becomes the account's balance."
              : "Rejecting voids the draft: nothing is credited."}
          </p>
        </DecisionDialog>
      )}
    </section>
  );
}

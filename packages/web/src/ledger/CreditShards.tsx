import { useState } from "react";
import toast from "react-hot-toast";
import type { LedgerAccount } from "../api/types";
import { secondaryButtonClass } from "../components/styles";
import { useSession } from "../session/hooks";
import { writeErrorMessage } from "./actionErrors";
import { ConfirmDialog } from "./ConfirmDialog";
import { CREDIT_SHARDS_TEXT, creditShardsChip, maySpreadCredits } from "./creditShards";
import { useEnableCreditShards } from "./hooks";
import { errorTextClass } from "./ui";

/** "Credits on 32 shards" beside an account whose incoming credits are spread; nothing otherwise. */
export function CreditShardsChip({ account, className = "" }: { account: LedgerAccount; className?: string }) {
  const label = creditShardsChip(account);
  if (!label) return null;
  return (
    <p className={className}>
      <span className="inline-flex items-center rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200">
        {label}
      </span>
    </p>
  );
}

/** Administrators: the button and its confirmation (POST .../accounts/{id}/credit-shards). */
export function SpreadCreditsButton({ account }: { account: LedgerAccount }) {
  const role = useSession()?.user.role;
  const enable = useEnableCreditShards();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!maySpreadCredits(account, role)) return null;

  const close = () => {
    setAsking(false);
    setFailure(null);
  };
  const confirm = async () => {
    setFailure(null);
    try {
      const reply = await enable.mutateAsync({ accountId: account.id });
      toast.success(reply.message);
      close();
    } catch (caught) {
      setFailure(writeErrorMessage(caught, CREDIT_SHARDS_TEXT.failed));
    }
  };

  return (
    <>
      <button type="button" className={secondaryButtonClass} onClick={() => setAsking(true)}>
        {CREDIT_SHARDS_TEXT.button}
      </button>
      {asking && (
        <ConfirmDialog
          title={CREDIT_SHARDS_TEXT.title}
          confirmLabel={CREDIT_SHARDS_TEXT.confirm}
          busyLabel={CREDIT_SHARDS_TEXT.busy}
          busy={enable.isPending}
          tone="primary"
          onConfirm={() => void confirm()}
          onCancel={close}
        >
          <p>
            <strong>{account.name}</strong>: {CREDIT_SHARDS_TEXT.explanation}
          </p>
          <p className="font-semibold">{CREDIT_SHARDS_TEXT.oneWay}</p>
          {failure && (
            <p role="alert" className={errorTextClass}>
              {failure}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

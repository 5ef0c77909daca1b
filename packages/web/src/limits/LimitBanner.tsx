import { Link } from "react-router-dom";
import type { Currency } from "@fintech/core/money/model";
import { errorMessage } from "../api/errors";
import { cardClass, Spinner, subtleTextClass } from "../ledger/ui";
import { useLimits } from "./hooks";
import { limitLines } from "./limitLines";

const LEVEL_TONES = {
  verified: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  unverified: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
} as const;

/**
 * The caller's verification level and what they may still move (GET /api/v1/ledger/limits), on
 * the ledger workspace and the payments screen: per currency of their accounts, deposits and
 * payments to others, and the link to /kyc while verifying would raise them. Own-account
 * transfers are never limited, so they are not shown.
 */
export function LimitBanner({ currencies = [] }: { currencies?: readonly Currency[] }) {
  const limits = useLimits();
  if (limits.isPending) {
    return (
      <p className={subtleTextClass}>
        <Spinner label="Loading your limits…" />
      </p>
    );
  }
  if (limits.isError) {
    return (
      <p role="status" className={subtleTextClass}>
        Your limits could not be loaded: {errorMessage(limits.error, "please try again")}
      </p>
    );
  }
  const status = limits.data;
  const lines = limitLines(status, currencies);
  return (
    <section aria-labelledby="limit-banner-heading" className={`${cardClass} !p-4`} data-level={status.level}>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="limit-banner-heading" className="text-base font-semibold text-slate-900 dark:text-white">
          Your limits
        </h2>
        <span
          className={`inline-flex items-center rounded-full px-3 py-0.5 text-sm font-semibold ${LEVEL_TONES[status.level]}`}
        >
          {status.level_label}
        </span>
        {status.source === "manual" && <span className={subtleTextClass}>Level set by an administrator</span>}
      </div>
      <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2">
        {lines.map((line) => (
          <li
            key={`${line.movement}-${line.currency}`}
            className="min-w-0 text-sm text-slate-700 dark:text-slate-200"
            data-movement={line.movement}
          >
            <span className="font-medium text-slate-900 dark:text-white">
              {line.label} ({line.currency}):
            </span>{" "}
            {line.allowed ? (
              <>
                <strong className="tabular-nums">{line.remaining}</strong> left{" "}
                <span className="text-slate-600 dark:text-slate-300">{line.detail}</span>
              </>
            ) : (
              <span className="text-slate-600 dark:text-slate-300">{line.detail}</span>
            )}
          </li>
        ))}
      </ul>
      {status.next_step && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">
          {status.next_step.message}{" "}
          <Link to={status.next_step.href} className="font-semibold text-indigo-700 underline dark:text-indigo-300">
            Complete verification
          </Link>
        </p>
      )}
    </section>
  );
}

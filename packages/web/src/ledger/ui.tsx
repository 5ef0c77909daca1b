import type { ReactNode } from "react";
import type { Currency } from "@fintech/core/money/model";
import { LockIcon } from "../components/icons";
import { secondaryButtonClass } from "../components/styles";
import { formatMoney, type SignDisplay } from "../lib/money";
import { statusLabel } from "./format";

/** Small building blocks shared by the workspace's tabs and sub-views. */

export const cardClass =
  "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900";

export const subtleTextClass = "text-sm text-slate-600 dark:text-slate-300";

export const sectionTitleClass = "text-lg font-semibold text-slate-900 dark:text-white";

/** Error text in both themes with AA contrast. */
export const errorTextClass = "text-sm font-medium text-red-700 dark:text-red-300";

export const dangerButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-lg border border-red-300 bg-white px-3 py-1.5 text-sm font-semibold text-red-700 " +
  "hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950";

export const smallPrimaryButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-semibold text-white " +
  "hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-emerald-500 dark:text-slate-950 dark:hover:bg-emerald-400";

/** A spinner that stands still when the user prefers reduced motion. */
export function Spinner({ label, className = "" }: { label?: string; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <span
        aria-hidden="true"
        className="h-4 w-4 rounded-full border-2 border-current border-t-transparent opacity-80 motion-safe:animate-spin"
      />
      {label && <span>{label}</span>}
    </span>
  );
}

/** An amount from minor units or a decimal string through the one formatter: "$1,234.50", "−€20.00". */
export function Money({
  minor,
  currency,
  className = "",
  signed = false,
  signDisplay,
}: {
  minor: number | string | null | undefined;
  currency: Currency;
  className?: string;
  /** Shorthand for signDisplay "exceptZero": "+$5.00", "−$5.00", "$0.00". */
  signed?: boolean;
  signDisplay?: SignDisplay;
}) {
  return (
    <span className={`whitespace-nowrap tabular-nums ${className}`}>
      {formatMoney(minor, currency, { signDisplay: signDisplay ?? (signed ? "exceptZero" : "auto") })}
    </span>
  );
}

/**
 * A row's amount as seen from the user's side: "+$500.00" (in, green), "−$20.00" (out, red), or
 * unsigned "$120.50" for a move between the user's own accounts (see transactions.rowMovement).
 */
export function SignedAmount({ minor, currency, signed }: { minor: number; currency: Currency; signed: boolean }) {
  if (!signed) return <Money minor={minor} currency={currency} className="text-slate-900 dark:text-white" />;
  const tone =
    minor > 0
      ? "text-emerald-700 dark:text-emerald-300"
      : minor < 0
        ? "text-red-700 dark:text-red-300"
        : "text-slate-900 dark:text-white";
  return <Money minor={minor} currency={currency} signed className={tone} />;
}

/** A journal's status as a badge: "Draft" (amber) or "Posted" (green). */
export function StatusBadge({ status }: { status: string }) {
  const colours: Record<string, string> = {
    posted: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
    // A released hold: final and moving no money.
    voided: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${
        colours[status.toLowerCase()] ?? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      }`}
    >
      {statusLabel(status)}
    </span>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="font-semibold text-slate-900 dark:text-white">{title}</p>
      {children && <div className={`mt-2 ${subtleTextClass}`}>{children}</div>}
      {action && <div className="mt-4 flex justify-center">{action}</div>}
    </div>
  );
}

/** A load failure with a retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/60"
    >
      <p className={errorTextClass}>{message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="text-sm font-semibold text-red-800 underline dark:text-red-200"
      >
        Try again
      </button>
    </div>
  );
}

/** Steps of a wizard as an ordered list; the current one carries aria-current="step". */
export function StepList({ labels, current, label }: { labels: readonly string[]; current: number; label: string }) {
  return (
    <ol aria-label={label} className="flex flex-wrap items-center gap-x-2 gap-y-2 text-xs font-semibold sm:text-sm">
      {labels.map((text, index) => {
        const step = index + 1;
        const state = step < current ? "done" : step === current ? "current" : "todo";
        return (
          <li key={text} aria-current={state === "current" ? "step" : undefined} className="flex items-center gap-2">
            <span
              className={`flex h-6 w-6 items-center justify-center rounded-full text-xs ${
                state === "current"
                  ? "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950"
                  : state === "done"
                    ? "bg-emerald-600 text-white dark:bg-emerald-400 dark:text-slate-950"
                    : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
              }`}
            >
              {state === "done" ? "✓" : step}
            </span>
            <span
              className={state === "todo" ? "text-slate-500 dark:text-slate-400" : "text-slate-900 dark:text-slate-100"}
            >
              {text}
              {state === "done" && <span className="sr-only"> (completed)</span>}
            </span>
            {step < labels.length && (
              <span aria-hidden="true" className="mx-1 h-px w-4 bg-slate-300 dark:bg-slate-700 sm:w-8" />
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A labelled figure in a detail pane or a stat tile. */
export function Figure({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">{children}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{hint}</dd>}
    </div>
  );
}

/** A labelled value on a wizard's review step. */
export function ReviewItem({ label, children, mono = false }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`mt-0.5 break-words text-slate-900 dark:text-white ${mono ? "font-mono" : ""}`}>{children}</dd>
    </div>
  );
}

/** Back on the left, the step's own action(s) on the right. */
export function WizardButtons({
  onBack,
  backDisabled = false,
  children,
}: {
  onBack: () => void;
  backDisabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="mt-6 flex flex-wrap justify-between gap-3">
      <button type="button" className={secondaryButtonClass} onClick={onBack} disabled={backDisabled}>
        Back
      </button>
      {children}
    </div>
  );
}

/** The error under one form field, referenced by the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={`mt-1 ${errorTextClass}`}>
      {message}
    </p>
  );
}

/**
 * A locked account (the accountLocked event, docs/product/ledger-workspace.md#live-updates): money
 * can come in, none can go out.
 */
export function LockedBadge() {
  return (
    <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
      <LockIcon width="12" height="12" />
      Locked
    </span>
  );
}

export const isLocked = (account: { status?: string }) => account.status?.toUpperCase() === "LOCKED";

/**
 * An account as a list row shows it: name and number on the left (a Locked badge beside a locked
 * one), balance on the right.
 */
export function AccountLine({
  account,
}: {
  account: { name: string; account_number: string; balance_minor: number; currency: Currency; status?: string };
}) {
  return (
    <>
      <span className="min-w-0">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate font-medium text-slate-900 dark:text-white">{account.name}</span>
          {isLocked(account) && <LockedBadge />}
        </span>
        <span className="block truncate font-mono text-xs text-slate-600 dark:text-slate-400">
          {account.account_number}
        </span>
      </span>
      <span className="shrink-0 text-right font-semibold text-slate-900 dark:text-white">
        <Money minor={account.balance_minor} currency={account.currency} />
      </span>
    </>
  );
}

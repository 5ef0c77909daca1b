import { useRef, type ReactNode } from "react";
import { keyFor, settled, type ActionKey } from "../ledger/actionKey";

/** The wizard's small building blocks: notices in four tones and the per-action idempotency key. */

export type NoticeTone = "warning" | "error" | "success" | "info";

const TONES: Record<NoticeTone, string> = {
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100",
  success:
    "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100",
  info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950/60 dark:text-sky-100",
};

/**
 * A titled message in the page (docs/product/kyc.md#messages names each: Loading Error, KYC Already Exists, File
 * Validation Failed…). `urgent` ones interrupt a screen reader (role alert); the rest are polite.
 */
export function Notice({
  tone,
  title,
  children,
  urgent = false,
  quiet = false,
  className = "",
}: {
  tone: NoticeTone;
  title: string;
  children?: ReactNode;
  urgent?: boolean;
  /** Not a live region: content that is there when the step opens and holds controls (a form, a button). */
  quiet?: boolean;
  className?: string;
}) {
  return (
    <div
      role={quiet ? undefined : urgent ? "alert" : "status"}
      className={`rounded-xl border p-4 text-sm ${TONES[tone]} ${className}`}
    >
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1 break-words">{children}</div>}
    </div>
  );
}

/**
 * One Idempotency-Key per user action (ledger/actionKey.ts): the same request retried keeps its
 * key, so a double click or a retry after a lost reply is applied once.
 */
export function useActionKey() {
  const current = useRef<ActionKey | null>(null);
  return {
    keyFor: (body: unknown) => {
      current.current = keyFor(current.current, body);
      return current.current.key;
    },
    settle: () => {
      if (current.current) current.current = settled(current.current);
    },
  };
}

/** A thin determinate bar; the caller labels it (role progressbar with its value). */
export function ProgressBar({
  percent,
  label,
  className = "",
}: {
  percent: number;
  label: string;
  className?: string;
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={`h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800 ${className}`}
    >
      <div
        className="h-full rounded-full bg-indigo-600 transition-[width] duration-300 motion-reduce:transition-none dark:bg-indigo-400"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}

/** A bulleted list of short texts (check problems, next steps); nothing when there are none. */
export function BulletList({ items, className = "" }: { items: readonly string[]; className?: string }) {
  if (items.length === 0) return null;
  return (
    <ul className={`list-disc pl-5 ${className}`}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";
import { LoadError, Spinner, subtleTextClass } from "../ledger/ui";

/** The pieces every report table is made of. */
export const thClass =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
export const tdClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";

export function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone.
    <div className="overflow-x-auto" role="region" aria-label={`${caption} table`} tabIndex={0}>
      <table className="min-w-full divide-y divide-slate-200 dark:divide-slate-800">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className={thClass}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

export function Loading<T>({
  query,
  what,
  children,
}: {
  query: { data?: T; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading the ${what}…`} className={subtleTextClass} />;
  if (query.isError || query.data === undefined)
    return (
      <LoadError
        message={errorMessage(query.error, `The ${what} could not be loaded`)}
        onRetry={() => void query.refetch()}
      />
    );
  return <>{children(query.data)}</>;
}

export function Customer({ customer }: { customer: { name: string; email: string } }) {
  return (
    <span className="block min-w-40">
      <span className="block font-medium">{customer.name}</span>
      <span className={`block break-all ${subtleTextClass}`}>{customer.email}</span>
    </span>
  );
}

export const shortIds = (ids: string[]) => ids.map((id) => id.slice(0, 8)).join(", ");

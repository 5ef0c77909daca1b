import { useId, useState } from "react";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass } from "../components/styles";
import { cardClass, EmptyState, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney, moneySign } from "../lib/money";
import { previousDay } from "./format";
import { usePositions } from "./hooks";

const headClass =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
const cellClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";

/**
 * Each rail's clearing account for a day, per currency: what was sent over the rail, what the
 * files settled, what was resolved by hand and what is still open. Once the day is settled it
 * nets to zero; a position that does not is marked, in words as well as colour.
 */
export function PositionsPanel({ today }: { today: string }) {
  const headingId = useId();
  const [date, setDate] = useState(() => previousDay(today));
  const positions = usePositions(date, date.length === 10);
  const data = positions.data;
  const heldInSuspense = (data?.suspense ?? []).filter((held) => moneySign(held.open, held.currency) !== 0);

  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className={sectionTitleClass}>
            Clearing positions
          </h2>
          <p className={`mt-1 ${subtleTextClass}`}>A rail's clearing account nets to zero once its day is settled.</p>
        </div>
        <div>
          <label htmlFor={`${headingId}-date`} className={labelClass}>
            Day
          </label>
          <input
            id={`${headingId}-date`}
            type="date"
            className={`${inputClass} w-auto`}
            value={date}
            max={today}
            onChange={(event) => setDate(event.target.value)}
          />
        </div>
      </div>
      <div className="mt-4">
        {positions.isError && !data ? (
          <LoadError
            message={errorMessage(positions.error, "Failed to load the clearing positions")}
            onRetry={() => void positions.refetch()}
          />
        ) : !data ? (
          <p className={subtleTextClass}>
            <Spinner label="Loading the clearing positions…" />
          </p>
        ) : data.positions.length === 0 ? (
          <EmptyState title="Nothing cleared that day">No payment went over a rail on {data.date}.</EmptyState>
        ) : (
          <div className="-mx-1 overflow-x-auto px-1">
            <table className="w-full min-w-[40rem] border-collapse">
              <caption className="sr-only">Clearing positions on {data.date}</caption>
              <thead className="border-b border-slate-200 dark:border-slate-700">
                <tr>
                  <th scope="col" className={headClass}>
                    Rail
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Sent
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Settled
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Resolved
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Open
                  </th>
                  <th scope="col" className={headClass}>
                    Position
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {data.positions.map((position) => (
                  <tr key={`${position.railId}-${position.currency}`} data-nets-to-zero={position.netsToZero}>
                    <th scope="row" className={`${cellClass} text-left font-medium`}>
                      {position.rail}{" "}
                      <span className="text-xs text-slate-600 dark:text-slate-300">{position.currency}</span>
                    </th>
                    <td className={`${cellClass} text-right tabular-nums`}>
                      {formatMoney(position.expected, position.currency)}
                    </td>
                    <td className={`${cellClass} text-right tabular-nums`}>
                      {formatMoney(position.settled, position.currency)}
                    </td>
                    <td className={`${cellClass} text-right tabular-nums`}>
                      {formatMoney(position.resolved, position.currency)}
                    </td>
                    <td className={`${cellClass} text-right font-semibold tabular-nums`}>
                      {formatMoney(position.open, position.currency)}
                    </td>
                    <td className={cellClass}>
                      {position.netsToZero ? (
                        <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
                          ✓ Nets to zero
                        </span>
                      ) : (
                        <span className="inline-flex rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-950 dark:text-red-200">
                          ✗ Does not net to zero
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {heldInSuspense.length > 0 && (
          <p className={`mt-3 ${subtleTextClass}`}>
            Held in suspense for open breaks:{" "}
            {heldInSuspense.map((held) => formatMoney(held.open, held.currency)).join(", ")}
          </p>
        )}
      </div>
    </section>
  );
}

import { useState } from "react";
import type { FxPair, RateReply } from "@fintech/core/fx/model";
import { errorMessage } from "../api/errors";
import { cardClass, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { linePoints, pointsAttribute } from "./chart";
import { TREASURY_DAYS, useRateHistory, useRates } from "./hooks";
import { cellClass, headCellClass, pairLabel, spreadPercent, tableClass } from "./format";

/** Every pair's mid rate, spread and customer bid/ask, and the chosen pair's history as a chart. */
export function RatesPanel() {
  const rates = useRates();
  const [pair, setPair] = useState<FxPair>("EURUSD");
  return (
    <section className={cardClass} aria-labelledby="rates-title">
      <h2 id="rates-title" className={sectionTitleClass}>
        Rates
      </h2>
      {rates.isPending && <Spinner label="Loading rates" />}
      {rates.isError && (
        <LoadError message={errorMessage(rates.error, "Could not load rates")} onRetry={() => void rates.refetch()} />
      )}
      {rates.data && (
        <div className="mt-3 overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">Mid rate, spread and customer bid and ask of every pair</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  Pair
                </th>
                <th scope="col" className={headCellClass}>
                  Mid
                </th>
                <th scope="col" className={headCellClass}>
                  Spread
                </th>
                <th scope="col" className={headCellClass}>
                  Bid / ask
                </th>
                <th scope="col" className={headCellClass}>
                  As of
                </th>
              </tr>
            </thead>
            <tbody>
              {rates.data.map((rate) => (
                <RateRow
                  key={rate.pair}
                  rate={rate}
                  selected={rate.pair === pair}
                  onSelect={() => setPair(rate.pair)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <RateHistory pair={pair} />
    </section>
  );
}

function RateRow({ rate, selected, onSelect }: { rate: RateReply; selected: boolean; onSelect: () => void }) {
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid={`rate-${rate.pair}`}>
      <th scope="row" className="px-2 py-2 font-medium">
        <button
          type="button"
          onClick={onSelect}
          aria-pressed={selected}
          className="font-semibold text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          {pairLabel(rate.pair)}
        </button>
      </th>
      <td className={cellClass}>{rate.mid}</td>
      <td className={cellClass}>{spreadPercent(rate.spread)}</td>
      <td className={cellClass}>
        {rate.bid} / {rate.ask}
      </td>
      <td className={cellClass}>
        {rate.as_of} <span className="text-slate-600 dark:text-slate-300">({rate.source})</span>
      </td>
    </tr>
  );
}

const CHART = { width: 480, height: 120 };

function RateHistory({ pair }: { pair: FxPair }) {
  const history = useRateHistory(pair);
  const rows = history.data?.data ?? [];
  const points = linePoints(
    rows.map((row) => row.mid),
    CHART.width,
    CHART.height,
  );
  const first = rows[0];
  const last = rows.at(-1);
  const summary =
    first && last
      ? `${pairLabel(pair)} over the last ${TREASURY_DAYS} days: ${rows.length} rates, from ${first.mid} on ${first.as_of} to ${last.mid} on ${last.as_of}`
      : `${pairLabel(pair)}: no rate set or imported in the last ${TREASURY_DAYS} days; the seed rate is current`;
  return (
    <div className="mt-5">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">{pairLabel(pair)} history</h3>
      {history.isPending ? (
        <Spinner label="Loading history" />
      ) : (
        <>
          <p className={`mt-1 ${subtleTextClass}`} id="rate-history-summary">
            {summary}
          </p>
          {points.length > 0 && (
            <svg
              viewBox={`0 0 ${CHART.width} ${CHART.height}`}
              className="mt-2 h-32 w-full text-indigo-700 dark:text-indigo-300"
              role="img"
              aria-labelledby="rate-history-summary"
            >
              <title>{summary}</title>
              <polyline points={pointsAttribute(points)} fill="none" stroke="currentColor" strokeWidth="2" />
              {points.map((point, index) => (
                <circle key={rows[index]!.updated_at + index} cx={point.x} cy={point.y} r="3" fill="currentColor" />
              ))}
            </svg>
          )}
          {rows.length > 0 && (
            <details className="mt-2">
              <summary className="cursor-pointer text-sm font-semibold text-indigo-700 dark:text-indigo-300">
                History as a table
              </summary>
              <table className={`${tableClass} mt-2`}>
                <thead>
                  <tr>
                    <th scope="col" className={headCellClass}>
                      Day
                    </th>
                    <th scope="col" className={headCellClass}>
                      Mid
                    </th>
                    <th scope="col" className={headCellClass}>
                      Spread
                    </th>
                    <th scope="col" className={headCellClass}>
                      Source
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row, index) => (
                    <tr key={row.updated_at + index} className="border-t border-slate-200 dark:border-slate-800">
                      <td className={cellClass}>{row.as_of}</td>
                      <td className={cellClass}>{row.mid}</td>
                      <td className={cellClass}>{spreadPercent(row.spread)}</td>
                      <td className={cellClass}>{row.source}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          )}
        </>
      )}
    </div>
  );
}

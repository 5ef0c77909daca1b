import { QUOTE_CURRENCIES, type QuoteCurrency } from "@fintech/core/rails/model";
import { useId } from "react";
import { inputClass, labelClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import type { Simulation } from "./console";
import { BAND_TEXT, percentText, secondsText } from "./format";
import { EmptyState, Panel } from "./Panels";

interface CostSimulatorProps {
  amount: string;
  currency: QuoteCurrency;
  simulation: Simulation;
  onAmount: (amount: string) => void;
  onCurrency: (currency: QuoteCurrency) => void;
}

/**
 * The cost simulator (spec 001 §5, §9): an amount in USD, EUR, GBP or JPY; every ACTIVE rail's
 * cost by core's formula (the one POST /api/v1/rails/quote runs), its breakdown, its share of the
 * amount in colour bands (green < 1 %, yellow < 2 %, red otherwise) and the cheapest marked Best
 * Option. The amount is floored at 0, invalid input counts as 0, and 0 shows no costs.
 */
export function CostSimulator({ amount, currency, simulation, onAmount, onCurrency }: CostSimulatorProps) {
  const amountId = useId();
  const currencyId = useId();
  const { results } = simulation;
  return (
    <Panel title="Cost simulator" description="Total cost = fixed fee + FX spread × amount (none for USD) + 0.1 % network fee. Only active rails are compared.">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
        <div className="min-w-0">
          <label htmlFor={amountId} className={labelClass}>
            Amount
          </label>
          <input id={amountId} type="number" inputMode="decimal" min={0} step="any" className={inputClass} value={amount} onChange={(event) => onAmount(event.target.value)} />
        </div>
        <div>
          <label htmlFor={currencyId} className={labelClass}>
            Currency
          </label>
          <select id={currencyId} className={`${inputClass} w-auto`} value={currency} onChange={(event) => onCurrency(event.target.value as QuoteCurrency)}>
            {QUOTE_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="mt-4" aria-live="polite">
        {simulation.amountMinor === 0 ? (
          <EmptyState title="Enter an amount above 0">Costs are computed for amounts above 0.</EmptyState>
        ) : results.length === 0 ? (
          <EmptyState title="No active rail">Start a rail to compare costs.</EmptyState>
        ) : (
          <>
            <p className="sr-only">
              Best Option for {formatMoney(simulation.amount, currency)}: {simulation.best?.name} at {formatMoney(simulation.best?.totalCost, currency)}
            </p>
            <ul aria-label="Cost per active rail" className="space-y-2">
              {results.map((result) => (
                <li
                  key={result.railId}
                  data-rail={result.railId}
                  className={`rounded-xl border p-3 ${
                    result.isOptimal ? "border-emerald-500 bg-emerald-50 dark:border-emerald-600 dark:bg-emerald-950/50" : "border-slate-200 dark:border-slate-700"
                  }`}
                >
                  <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                    <p className="flex min-w-0 items-center gap-2 font-semibold text-slate-900 dark:text-white">
                      <span>{result.name}</span>
                      {result.isOptimal && (
                        <span className="rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-emerald-400 dark:text-slate-950">Best Option</span>
                      )}
                    </p>
                    <p className="tabular-nums">
                      <span className="font-bold text-slate-900 dark:text-white" data-cost>
                        {formatMoney(result.totalCost, currency)}
                      </span>{" "}
                      <span className={`text-sm font-semibold ${BAND_TEXT[result.costBand]}`}>({percentText(result.costPercent, 3)}%)</span>
                    </p>
                  </div>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                    Fixed {formatMoney(result.breakdown.fixedFee, currency)} · FX {formatMoney(result.breakdown.fxSpread, currency)} · Network{" "}
                    {formatMoney(result.breakdown.networkFee, currency)} · ~{secondsText(result.estimatedTime)}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Panel>
  );
}

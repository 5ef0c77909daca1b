import { arrivalEstimate } from "@fintech/core/rails/eligibility";
import { QUOTE_CURRENCIES, type QuoteCurrency } from "@fintech/core/rails/model";
import { toDecimalString } from "@fintech/core/money/model";
import { REFERENCE_RATES_AS_OF } from "@fintech/core/rails/reference-rates";
import { useId } from "react";
import { inputClass, labelClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { SIMULATOR_COUNTRIES, type Simulation } from "./console";
import { BAND_TEXT, percentText, secondsText } from "./format";
import { EmptyState, Panel } from "./Panel";

interface CostSimulatorProps {
  amount: string;
  currency: QuoteCurrency;
  simulation: Simulation;
  onAmount: (amount: string) => void;
  onCurrency: (currency: QuoteCurrency) => void;
  onPayoutCurrency: (currency: QuoteCurrency) => void;
  onCountry: (country: string) => void;
}

/**
 * The cost simulator (docs/product/payment-rails.md#cost-simulator): an amount in any currency the
 * ledger keeps, the currency it arrives in and where it goes; every ACTIVE rail's cost by core's
 * formula (the one POST /api/v1/rails/quote runs), its breakdown with the fixed fee in the rail's
 * own currency and the rate it was converted at, its share of the amount in colour bands
 * (green < 1 %, yellow < 2 %, red otherwise), whether it can carry the payment (and why not), and
 * the cheapest ELIGIBLE rail marked Best Option with its saving against the first eligible rail
 * (never negative).
 */
export function CostSimulator({
  amount,
  currency,
  simulation,
  onAmount,
  onCurrency,
  onPayoutCurrency,
  onCountry,
}: CostSimulatorProps) {
  const amountId = useId();
  const currencyId = useId();
  const payoutId = useId();
  const countryId = useId();
  const { results, savings } = simulation;
  return (
    <Panel
      title="Cost simulator"
      description="Total cost = fixed fee (converted from the rail's fee currency) + FX spread × amount (only when the payout currency differs) + 0.1 % network fee. Only active rails that can carry the payment are compared."
    >
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
        <div className="min-w-0">
          <label htmlFor={amountId} className={labelClass}>
            Amount
          </label>
          <input
            id={amountId}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            className={inputClass}
            value={amount}
            onChange={(event) => onAmount(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={currencyId} className={labelClass}>
            Currency
          </label>
          <select
            id={currencyId}
            className={`${inputClass} w-auto`}
            value={currency}
            onChange={(event) => onCurrency(event.target.value as QuoteCurrency)}
          >
            {QUOTE_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0">
          <label htmlFor={countryId} className={labelClass}>
            Destination country
          </label>
          <select
            id={countryId}
            className={inputClass}
            value={simulation.country}
            onChange={(event) => onCountry(event.target.value)}
          >
            {SIMULATOR_COUNTRIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={payoutId} className={labelClass}>
            Arrives in
          </label>
          <select
            id={payoutId}
            className={`${inputClass} w-auto`}
            value={simulation.payoutCurrency}
            onChange={(event) => onPayoutCurrency(event.target.value as QuoteCurrency)}
          >
            {QUOTE_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        Fees in other currencies are converted at reference rates of {REFERENCE_RATES_AS_OF}.
      </p>

      <div className="mt-4" aria-live="polite">
        {simulation.amountMinor === 0 ? (
          <EmptyState title="Enter an amount above 0">Costs are computed for amounts above 0.</EmptyState>
        ) : results.length === 0 ? (
          <EmptyState title="No active rail">Start a rail to compare costs.</EmptyState>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-700 dark:text-slate-200" data-savings>
              {savings
                ? `Savings: ${formatMoney(toDecimalString(savings.savingMinor, currency), currency)} with ${simulation.best?.name ?? ""}, against the first eligible rail (${savings.baselineName}) as the baseline.`
                : "No active rail can carry this payment, so there is no Best Option."}
            </p>
            <p className="sr-only">
              Best Option for {formatMoney(simulation.amount, currency)}: {simulation.best?.name} at{" "}
              {formatMoney(simulation.best?.totalCost, currency)}
            </p>
            <ul aria-label="Cost per active rail" className="space-y-2">
              {results.map((result) => (
                <li
                  key={result.railId}
                  data-rail={result.railId}
                  data-eligible={result.eligible}
                  className={`rounded-xl border p-3 ${
                    result.isOptimal
                      ? "border-emerald-500 bg-emerald-50 dark:border-emerald-600 dark:bg-emerald-950/50"
                      : result.eligible
                        ? "border-slate-200 dark:border-slate-700"
                        : "border-dashed border-slate-300 dark:border-slate-600"
                  }`}
                >
                  <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                    <p className="flex min-w-0 items-center gap-2 font-semibold text-slate-900 dark:text-white">
                      <span>{result.name}</span>
                      {result.isOptimal && (
                        <span className="rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-emerald-400 dark:text-slate-950">
                          Best Option
                        </span>
                      )}
                    </p>
                    <p className="tabular-nums">
                      <span className="font-bold text-slate-900 dark:text-white" data-cost>
                        {formatMoney(result.totalCost, currency)}
                      </span>{" "}
                      <span className={`text-sm font-semibold ${BAND_TEXT[result.costBand]}`}>
                        ({percentText(result.costPercent, 3)}%)
                      </span>
                    </p>
                  </div>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                    Fixed {formatMoney(result.fixedFeeOriginal.amount, result.fixedFeeOriginal.currency)}
                    {result.fixedFeeOriginal.rate
                      ? ` = ${formatMoney(result.breakdown.fixedFee, currency)} at ${result.fixedFeeOriginal.rate}`
                      : ""}{" "}
                    · FX {formatMoney(result.breakdown.fxSpread, currency)} · Network{" "}
                    {formatMoney(result.breakdown.networkFee, currency)} · ~{secondsText(result.estimatedTime)} ·
                    arrives {arrivalEstimate(result.settlementSeconds)}
                  </p>
                  {!result.eligible && (
                    <p className="mt-1 text-xs font-semibold text-slate-700 dark:text-slate-200">
                      Cannot carry it: {result.ineligibleReason}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Panel>
  );
}

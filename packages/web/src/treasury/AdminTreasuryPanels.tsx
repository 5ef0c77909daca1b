import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { FX_PAIRS, type FxPair } from "@fintech/core/fx/model";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { fxApi } from "./api";
import { TREASURY_DAYS, usePositions, useRevenue, useSetRate, useTreasuryRefresh } from "./hooks";
import { cellClass, headCellClass, pairLabel, spreadPercent, tableClass } from "./format";

/** What administrators see below the rates and the quote: set a rate, import the ECB file, positions and FX revenue. */
export function AdminTreasuryPanels() {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <SetRatePanel />
      <ImportPanel />
      <PositionsPanel />
      <RevenuePanel />
    </div>
  );
}

function SetRatePanel() {
  const setRate = useSetRate();
  const [pair, setPair] = useState<FxPair>("EURUSD");
  const [rate, setRateText] = useState("");
  const [spread, setSpread] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const saved = await setRate.mutateAsync({
        pair,
        ...(rate.trim() ? { rate: rate.trim() } : {}),
        ...(spread.trim() ? { spread: spread.trim() } : {}),
      });
      toast.success(`${pairLabel(saved.pair)} is now ${saved.mid}, spread ${spreadPercent(saved.spread)}`);
      setRateText("");
      setSpread("");
    } catch (caught) {
      setError(errorMessage(caught, "Could not save the rate"));
    }
  };
  return (
    <section className={cardClass} aria-labelledby="set-rate-title">
      <h2 id="set-rate-title" className={sectionTitleClass}>
        Set a rate or spread
      </h2>
      <form className="mt-3 grid gap-3 sm:grid-cols-3" onSubmit={onSubmit} noValidate>
        <div>
          <label htmlFor="set-rate-pair" className={labelClass}>
            Pair
          </label>
          <select
            id="set-rate-pair"
            className={inputClass}
            value={pair}
            onChange={(event) => setPair(event.target.value as FxPair)}
          >
            {FX_PAIRS.map((option) => (
              <option key={option} value={option}>
                {pairLabel(option)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="set-rate-mid" className={labelClass}>
            Mid rate
          </label>
          <input
            id="set-rate-mid"
            className={inputClass}
            inputMode="decimal"
            value={rate}
            onChange={(event) => setRateText(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor="set-rate-spread" className={labelClass}>
            Spread (fraction, 0.0050 = 0.5 %)
          </label>
          <input
            id="set-rate-spread"
            className={inputClass}
            inputMode="decimal"
            value={spread}
            onChange={(event) => setSpread(event.target.value)}
          />
        </div>
        <div className="sm:col-span-3">
          <button type="submit" className={primaryButtonClass} disabled={setRate.isPending}>
            Save rate
          </button>
          {error && (
            <p className={`mt-2 ${errorTextClass}`} role="alert">
              {error}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}

function ImportPanel() {
  const refresh = useTreasuryRefresh();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const reply = await fxApi.importRates(await file.text());
      setResult(
        `${reply.message}: ${reply.pairs.length} pairs${reply.ignored.length ? `; ignored ${reply.ignored.join(", ")}` : ""}`,
      );
      await refresh();
    } catch (caught) {
      setError(errorMessage(caught, "The import failed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className={cardClass} aria-labelledby="import-title">
      <h2 id="import-title" className={sectionTitleClass}>
        Import ECB reference rates
      </h2>
      <p className={`mt-1 ${subtleTextClass}`}>
        The ECB&apos;s daily eurofxref.csv: cross rates are derived through EUR; spreads stay as they are.
      </p>
      <label htmlFor="import-file" className={`${labelClass} mt-3`}>
        Rates file (CSV)
      </label>
      <input
        id="import-file"
        type="file"
        accept=".csv,text/csv"
        disabled={busy}
        className={`${secondaryButtonClass} w-full`}
        onChange={(event) => void onFile(event.target.files?.[0])}
      />
      {result && (
        <p className={`mt-2 ${subtleTextClass}`} role="status">
          {result}
        </p>
      )}
      {error && (
        <p className={`mt-2 ${errorTextClass}`} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function PositionsPanel() {
  const positions = usePositions(true);
  return (
    <section className={cardClass} aria-labelledby="positions-title">
      <h2 id="positions-title" className={sectionTitleClass}>
        Positions per currency
      </h2>
      {positions.isPending && <Spinner label="Loading positions" />}
      {positions.isError && (
        <LoadError
          message={errorMessage(positions.error, "Could not load positions")}
          onRetry={() => void positions.refetch()}
        />
      )}
      {positions.data && (
        <div className="mt-3 overflow-x-auto">
          <table className={tableClass}>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  Currency
                </th>
                <th scope="col" className={headCellClass}>
                  FX position
                </th>
                <th scope="col" className={headCellClass}>
                  Pending
                </th>
                <th scope="col" className={headCellClass}>
                  FX revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {positions.data.map((row) => (
                <tr key={row.currency} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="px-2 py-2 font-medium">
                    {row.currency}
                  </th>
                  <td className={cellClass}>{formatMoney(row.position, row.currency)}</td>
                  <td className={cellClass}>{formatMoney(row.pending, row.currency)}</td>
                  <td className={cellClass}>{formatMoney(row.revenue, row.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RevenuePanel() {
  const revenue = useRevenue(true);
  const earned = (revenue.data ?? []).filter((day) => day.revenue_minor !== 0).reverse();
  return (
    <section className={cardClass} aria-labelledby="revenue-title">
      <h2 id="revenue-title" className={sectionTitleClass}>
        FX revenue by day
      </h2>
      {revenue.isPending && <Spinner label="Loading revenue" />}
      {revenue.isError && (
        <LoadError
          message={errorMessage(revenue.error, "Could not load revenue")}
          onRetry={() => void revenue.refetch()}
        />
      )}
      {revenue.data && earned.length === 0 && (
        <p className={`mt-2 ${subtleTextClass}`}>No posted conversion in the last {TREASURY_DAYS} days.</p>
      )}
      {earned.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className={tableClass}>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  Day
                </th>
                <th scope="col" className={headCellClass}>
                  Currency
                </th>
                <th scope="col" className={headCellClass}>
                  Revenue
                </th>
                <th scope="col" className={headCellClass}>
                  Conversions
                </th>
              </tr>
            </thead>
            <tbody>
              {earned.map((day) => (
                <tr key={`${day.date}-${day.currency}`} className="border-t border-slate-200 dark:border-slate-800">
                  <td className={cellClass}>{day.date}</td>
                  <td className={cellClass}>{day.currency}</td>
                  <td className={cellClass}>{formatMoney(day.revenue, day.currency)}</td>
                  <td className={cellClass}>{day.conversions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

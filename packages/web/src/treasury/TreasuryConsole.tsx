import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import {
  FX_CURRENCIES,
  FX_PAIRS,
  FX_MESSAGES,
  secondsLeft,
  type FxPair,
  type QuoteReply,
  type RateReply,
} from "@fintech/core/fx/model";
import type { Currency } from "@fintech/core/money/model";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { useInvalidateLedger, useLedgerAccounts } from "../ledger/hooks";
import { cardClass, errorTextClass, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { randomId } from "../lib/uuid";
import { fxApi } from "./api";
import { linePoints, pointsAttribute } from "./chart";
import {
  TREASURY_DAYS,
  useNow,
  usePositions,
  useRateHistory,
  useRates,
  useRevenue,
  useSetRate,
  useTreasuryRefresh,
  useTreasuryViewer,
} from "./hooks";

/**
 * /treasury (docs/money-operations.md#fx-and-treasury): the rates with each pair's history, a
 * quote with its live 30-second countdown and the conversion between two of the user's accounts
 * that uses it; administrators also set rates and spreads, import the ECB file, and read the FX
 * positions and the FX revenue by day.
 */
export function TreasuryConsole() {
  const { isAdmin } = useTreasuryViewer();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Treasury &amp; FX
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Exchange rates with their history, quotes locked for 30 seconds, and conversions between your accounts. The
          spread is always shown as its own amount.
        </p>
      </header>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <RatesPanel />
        <QuotePanel />
      </div>
      {isAdmin && <AdminPanels />}
    </div>
  );
}

const tableClass = "w-full min-w-max text-left text-sm text-slate-800 dark:text-slate-100";
const headCellClass = "px-2 py-2 font-semibold text-slate-700 dark:text-slate-200";
const cellClass = "px-2 py-2 tabular-nums";

function RatesPanel() {
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

const pairLabel = (pair: string) => `${pair.slice(0, 3)}/${pair.slice(3)}`;
const spreadPercent = (spread: string) => `${(Number(spread) * 100).toFixed(2)} %`;

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

function QuotePanel() {
  const [from, setFrom] = useState<Currency>("USD");
  const [to, setTo] = useState<Currency>("EUR");
  const [amount, setAmount] = useState("100.00");
  const [quote, setQuote] = useState<QuoteReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(quote !== null);
  const left = quote ? secondsLeft(quote.expiresAt, now) : 0;

  const onQuote = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      setQuote(await fxApi.quote({ fromCurrency: from, toCurrency: to, amount: amount.trim() }, randomId()));
    } catch (caught) {
      setQuote(null);
      setError(errorMessage(caught, "Could not get a quote"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={cardClass} aria-labelledby="quote-title">
      <h2 id="quote-title" className={sectionTitleClass}>
        Get a quote
      </h2>
      <form className="mt-3 grid gap-3 sm:grid-cols-3" onSubmit={onQuote} noValidate>
        <div>
          <label htmlFor="quote-from" className={labelClass}>
            Sell
          </label>
          <select
            id="quote-from"
            className={inputClass}
            value={from}
            onChange={(event) => setFrom(event.target.value as Currency)}
          >
            {FX_CURRENCIES.map((currency) => (
              <option key={currency}>{currency}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="quote-to" className={labelClass}>
            Buy
          </label>
          <select
            id="quote-to"
            className={inputClass}
            value={to}
            onChange={(event) => setTo(event.target.value as Currency)}
          >
            {FX_CURRENCIES.map((currency) => (
              <option key={currency}>{currency}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="quote-amount" className={labelClass}>
            Amount ({from})
          </label>
          <input
            id="quote-amount"
            className={inputClass}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        </div>
        <div className="sm:col-span-3">
          <button type="submit" className={primaryButtonClass} disabled={busy || from === to}>
            {quote ? "Get a new quote" : "Get quote"}
          </button>
          {from === to && <p className={`mt-2 ${subtleTextClass}`}>{FX_MESSAGES.sameCurrency}</p>}
          {error && (
            <p className={`mt-2 ${errorTextClass}`} role="alert">
              {error}
            </p>
          )}
        </div>
      </form>
      {quote && <QuoteDetails quote={quote} left={left} onUsed={() => setQuote(null)} />}
    </section>
  );
}

function QuoteDetails({ quote, left, onUsed }: { quote: QuoteReply; left: number; onUsed: () => void }) {
  const expired = left <= 0;
  return (
    <div className="mt-4 rounded-xl border border-slate-200 p-4 dark:border-slate-700" data-testid="fx-quote">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm text-slate-800 dark:text-slate-100">
        <dt className="font-medium">You sell</dt>
        <dd className="tabular-nums">{formatMoney(quote.sellAmount, quote.fromCurrency)}</dd>
        <dt className="font-medium">Mid rate</dt>
        <dd className="tabular-nums">
          1 {quote.fromCurrency} = {quote.midRate} {quote.toCurrency}
        </dd>
        <dt className="font-medium">Spread ({spreadPercent(quote.spread)})</dt>
        <dd className="tabular-nums" data-testid="fx-spread">
          {formatMoney(quote.spreadAmount, quote.fromCurrency)}
        </dd>
        <dt className="font-medium">What arrives</dt>
        <dd className="font-semibold tabular-nums" data-testid="fx-arrives">
          {formatMoney(quote.buyAmount, quote.toCurrency)}
        </dd>
        <dt className="font-medium">Your rate</dt>
        <dd className="tabular-nums">{quote.customerRate}</dd>
      </dl>
      <p className="mt-3 text-sm font-semibold text-slate-800 dark:text-slate-100" aria-live="polite">
        {expired ? FX_MESSAGES.quoteExpired : `Rate locked for ${left} s`}
      </p>
      {!expired && <ConvertForm quote={quote} onUsed={onUsed} />}
    </div>
  );
}

function ConvertForm({ quote, onUsed }: { quote: QuoteReply; onUsed: () => void }) {
  const accounts = useLedgerAccounts();
  const invalidate = useInvalidateLedger();
  const refresh = useTreasuryRefresh();
  const [fromId, setFromId] = useState("");
  const [toId, setToId] = useState("");
  const [key] = useState(randomId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = (accounts.data ?? []).filter((account) => account.status === "ACTIVE");
  const sources = list.filter((account) => account.currency === quote.fromCurrency);
  const targets = list.filter((account) => account.currency === quote.toCurrency);
  const source = fromId || sources[0]?.id || "";
  const target = toId || targets[0]?.id || "";

  if (accounts.isPending) return <Spinner label="Loading your accounts" />;
  if (sources.length === 0 || targets.length === 0)
    return (
      <p className={`mt-3 ${subtleTextClass}`}>
        To convert, open a {quote.fromCurrency} and a {quote.toCurrency} account in the ledger workspace.
      </p>
    );

  const onConvert = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await fxApi.convert(
        { from_account_id: source, to_account_id: target, amount: quote.sellAmount, quote_id: quote.id },
        key,
      );
      toast.success(
        `Converted ${formatMoney(quote.sellAmount, quote.fromCurrency)} to ${formatMoney(quote.buyAmount, quote.toCurrency)}: approve both transactions on the Transactions tab to post them`,
      );
      await Promise.all([invalidate(), refresh()]);
      onUsed();
    } catch (caught) {
      setError(errorMessage(caught, "The conversion failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="mt-3 grid gap-3 sm:grid-cols-2" onSubmit={onConvert}>
      <div>
        <label htmlFor="convert-from" className={labelClass}>
          From account
        </label>
        <select
          id="convert-from"
          className={inputClass}
          value={source}
          onChange={(event) => setFromId(event.target.value)}
        >
          {sources.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name} ({formatMoney(account.available, account.currency)} available)
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="convert-to" className={labelClass}>
          To account
        </label>
        <select id="convert-to" className={inputClass} value={target} onChange={(event) => setToId(event.target.value)}>
          {targets.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name} ({formatMoney(account.balance, account.currency)})
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          Convert at this quote
        </button>
        {error && (
          <p className={`mt-2 ${errorTextClass}`} role="alert">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}

function AdminPanels() {
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

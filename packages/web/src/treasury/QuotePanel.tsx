import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { FX_MESSAGES, secondsLeft, type QuoteReply } from "@fintech/core/fx/model";
import type { Currency } from "@fintech/core/money/model";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass } from "../components/styles";
import { useInvalidateLedger, useLedgerAccounts } from "../ledger/hooks";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { randomId } from "../lib/uuid";
import { fxApi } from "./api";
import { useNow, useTreasuryRefresh } from "./hooks";
import { spreadPercent } from "./format";
import { CurrencySelect } from "./CurrencySelect";

/** A quote locked for 30 seconds with its countdown, and the conversion between two of the user's accounts that uses it. */
export function QuotePanel() {
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
        <CurrencySelect id="quote-from" label="Sell" value={from} onChange={setFrom} />
        <CurrencySelect id="quote-to" label="Buy" value={to} onChange={setTo} />
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

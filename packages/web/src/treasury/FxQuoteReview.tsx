import { useCallback, useEffect, useState } from "react";
import { FX_MESSAGES, secondsLeft, type QuoteReply } from "@fintech/core/fx/model";
import type { Currency } from "@fintech/core/money/model";
import { errorMessage } from "../api/errors";
import { secondaryButtonClass } from "../components/styles";
import { errorTextClass, Spinner } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { randomId } from "../lib/uuid";
import { fxApi } from "./api";
import { useNow } from "./hooks";

/**
 * The quote of a transfer between two currencies (the ledger workspace's transfer wizard): asked
 * for when shown, with the mid rate, the spread as its own amount, what arrives and the seconds
 * left; once expired, "Quote expired, get a new one". `onQuote` hears the live quote (null while
 * there is none or it expired).
 */
export function FxQuoteReview({
  from,
  to,
  amount,
  onQuote,
}: {
  from: Currency;
  to: Currency;
  amount: string;
  onQuote: (quote: QuoteReply | null) => void;
}) {
  const [quote, setQuote] = useState<QuoteReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(quote !== null);
  const left = quote ? secondsLeft(quote.expiresAt, now) : 0;

  const ask = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      setQuote(await fxApi.quote({ fromCurrency: from, toCurrency: to, amount: amount.trim() }, randomId()));
    } catch (caught) {
      setQuote(null);
      setError(errorMessage(caught, "Could not get a quote"));
    } finally {
      setBusy(false);
    }
  }, [from, to, amount]);

  useEffect(() => {
    void ask();
  }, [ask]);
  useEffect(() => onQuote(quote && left > 0 ? quote : null), [quote, left, onQuote]);

  if (busy && !quote) return <Spinner label="Getting a quote" />;
  return (
    <div
      className="mt-3 rounded-xl border border-slate-200 p-4 text-sm dark:border-slate-700"
      data-testid="transfer-quote"
    >
      {quote && (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-slate-800 dark:text-slate-100">
          <dt className="font-medium">Mid rate</dt>
          <dd className="tabular-nums">
            1 {quote.fromCurrency} = {quote.midRate} {quote.toCurrency}
          </dd>
          <dt className="font-medium">Spread</dt>
          <dd className="tabular-nums">{formatMoney(quote.spreadAmount, quote.fromCurrency)}</dd>
          <dt className="font-medium">What arrives</dt>
          <dd className="font-semibold tabular-nums">{formatMoney(quote.buyAmount, quote.toCurrency)}</dd>
        </dl>
      )}
      {quote && (
        <p className="mt-2 font-semibold text-slate-800 dark:text-slate-100" aria-live="polite">
          {left > 0 ? `Rate locked for ${left} s` : FX_MESSAGES.quoteExpired}
        </p>
      )}
      {error && (
        <p className={`mt-2 ${errorTextClass}`} role="alert">
          {error}
        </p>
      )}
      {(!quote || left <= 0) && (
        <button type="button" className={`mt-2 ${secondaryButtonClass}`} onClick={() => void ask()} disabled={busy}>
          Get a new quote
        </button>
      )}
    </div>
  );
}

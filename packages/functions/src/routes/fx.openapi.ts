import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  FX_DEFAULT_DAYS,
  FX_MAX_DAYS,
  ImportReply,
  QUOTE_TTL_MS,
  QuoteInput,
  QuoteReply,
  RateHistoryReply,
  RateReply,
  RatesReply,
  SetRateInput,
} from "@fintech/core/fx/model";
import { ECB_IMPORT_MAX_BYTES } from "@fintech/core/fx/rates";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  queryParameter,
  REPLAYED_HEADER,
  TAGS,
} from "../http/openapi";

/**
 * The OpenAPI declarations of the FX routes (fx.ts): rates with their history, admin rate and
 * spread changes, the ECB file import, and quotes.
 */

const fx = { tags: [TAGS.ledger] as [typeof TAGS.ledger], security: authenticated, "x-stability": "beta" as const };
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";
const pair = pathParameter("pair", "The pair, base first (EURUSD, GBPUSD, USDJPY, ...)", "EURUSD");

const rateExample = {
  pair: "EURUSD",
  mid: "1.0870",
  spread: "0.0050",
  as_of: "2026-11-27",
  updated_at: "2026-11-27T16:05:00.000Z",
  source: "ecb",
  bid: "1.08156500",
  ask: "1.09243500",
};
const quoteExample = {
  id: "5c1e0f4a-3b2d-5e6f-8a9b-0c1d2e3f4a5b",
  fromCurrency: "USD",
  toCurrency: "EUR",
  midRate: "0.91996320",
  customerRate: "0.91536300",
  spread: "0.0050",
  sellAmount: "100.00",
  buyAmount: "91.53",
  spreadAmount: "0.50",
  createdAt: "2026-11-27T16:05:00.000Z",
  expiresAt: "2026-11-27T16:05:30.000Z",
  used: false,
};

export const listRatesRoute = createRoute({
  ...fx,
  method: "get",
  path: "/rates",
  operationId: "listFxRates",
  summary: "Current FX rates",
  description:
    "Every pair's current mid rate (base -> quote, exact decimal string), its spread (a fraction: 0.005 is 0.5 %), the customer bid and ask (mid × (1 ∓ spread), for display) and when and how it was set (`seed`, `manual`, `ecb`).",
  "x-complexity": "low",
  responses: {
    200: jsonReply("Every pair's rate", "FxRatesReply", RatesReply, { data: [rateExample] }),
    ...errors({ 401: true }),
  },
});

export const rateHistoryRoute = createRoute({
  ...fx,
  method: "get",
  path: "/rates/{pair}/history",
  operationId: "getFxRateHistory",
  summary: "A pair's rate history",
  description: `Every rate the pair had over the last \`days\` market days (default ${FX_DEFAULT_DAYS}, at most ${FX_MAX_DAYS}), oldest first: each admin change and each imported day once. A pair never set or imported has no history (its seed rate is current).`,
  "x-complexity": "low",
  parameters: [
    pair,
    queryParameter("days", "Days back", { type: "integer", minimum: 1, maximum: FX_MAX_DAYS }, FX_DEFAULT_DAYS),
  ],
  responses: {
    200: jsonReply("The pair's rates", "FxRateHistoryReply", RateHistoryReply, {
      pair: "EURUSD",
      days: 30,
      data: [
        {
          pair: "EURUSD",
          mid: "1.0870",
          spread: "0.0050",
          as_of: "2026-11-27",
          updated_at: "2026-11-27T16:05:00.000Z",
          source: "ecb",
          recorded_by: "Ada Admin",
        },
      ],
    }),
    ...errors({ 400: ["invalid_pair", "invalid_days"], 401: true }),
  },
});

export const setRateRoute = createRoute({
  ...fx,
  method: "put",
  path: "/rates/{pair}",
  operationId: "setFxRate",
  summary: "Set a pair's rate or spread",
  description: `Sets the pair's mid rate (a positive decimal, at most 8 decimal places), its spread (0 to 0.1), or both; the change is current at once for new quotes (quotes already given keep their rate) and is kept in the pair's history. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [pair],
  request: { body: jsonBody("FxSetRateInput", SetRateInput, { rate: "1.0870", spread: "0.0050" }) },
  responses: {
    200: jsonReply("The pair's new rate", "FxRateChangedReply", z.object({ message: z.string(), data: RateReply }), {
      message: "EURUSD rate saved",
      data: { ...rateExample, source: "manual" },
    }),
    ...errors({ 400: ["validation_error", "invalid_pair", "invalid_json"], 401: true, 403: ["admin_required"] }),
  },
});

export const importRatesRoute = createRoute({
  ...fx,
  method: "post",
  path: "/rates/import",
  operationId: "importFxRates",
  summary: "Import the ECB reference rates (CSV)",
  description: `The ECB's eurofxref.csv as \`text/csv\` or JSON \`{csv}\` (at most ${ECB_IMPORT_MAX_BYTES / 1024} KB): a header \`Date, USD, JPY, ...\` and rows of euro-based rates. Cross rates of every pair are derived through EUR (half-up to 8 decimal places); currencies the platform does not carry are ignored and listed; the latest day becomes current, every day joins the history, spreads stay. A malformed file is a 400 \`invalid_rates_file\` naming the line, and nothing changes. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  request: {
    body: {
      required: true,
      content: {
        "text/csv": {
          schema: { type: "string" },
          example: "Date, USD, JPY, GBP, INR, \n27 November 2026, 1.0870, 162.50, 0.8530, 91.2000, \n",
        },
        "application/json": {
          schema: { type: "object", required: ["csv"], properties: { csv: { type: "string" } } },
          example: { csv: "Date, USD, GBP, \n27 November 2026, 1.0870, 0.8530, \n" },
        },
      },
    },
  },
  responses: {
    200: jsonReply("What was imported", "FxImportReply", ImportReply, {
      message: "Imported the rates of 2026-11-27",
      as_of: "2026-11-27",
      pairs: ["EURGBP", "EURUSD"],
      ignored: ["BGN"],
    }),
    ...errors({
      400: ["invalid_rates_file"],
      401: true,
      403: ["admin_required"],
      413: ["payload_too_large"],
      415: ["unsupported_media_type"],
    }),
  },
});

export const createQuoteRoute = createRoute({
  ...fx,
  method: "post",
  path: "/quotes",
  operationId: "createFxQuote",
  summary: "Quote a currency conversion",
  description: `Locks a customer rate for ${QUOTE_TTL_MS / 1000} s for selling \`amount\` of \`fromCurrency\`. The spread is its own amount, never hidden in the rate: buyAmount = (sellAmount − spreadAmount) × midRate, rounded down to the target's minor unit; customerRate = buyAmount / sellAmount, for display. Use it once, by its id, as \`quote_id\` of a transfer between two of your accounts in these currencies (POST /api/v1/ledger/transactions/transfer). Send an Idempotency-Key to retry safely.`,
  "x-complexity": "medium",
  parameters: [idempotencyKeyParameter()],
  request: { body: jsonBody("FxQuoteInput", QuoteInput, { fromCurrency: "USD", toCurrency: "EUR", amount: "100.00" }) },
  responses: {
    201: jsonReply(
      "The quote (a replay with the same Idempotency-Key is the same quote)",
      "FxQuoteReply",
      z.object({ data: QuoteReply }),
      { data: quoteExample },
      REPLAYED_HEADER,
    ),
    ...errors({
      400: ["validation_error", "invalid_amount", "invalid_json", "invalid_idempotency_key"],
      401: true,
      422: ["amount_too_small", "idempotency_key_reused"],
    }),
  },
});

export const getQuoteRoute = createRoute({
  ...fx,
  method: "get",
  path: "/quotes/{id}",
  operationId: "getFxQuote",
  summary: "One of your quotes",
  description: "A quote you asked for (another user's is `quote_not_found`), with whether it was used.",
  "x-complexity": "low",
  parameters: [pathParameter("id", "The quote's id", quoteExample.id)],
  responses: {
    200: jsonReply("The quote", "FxQuoteReply", z.object({ data: QuoteReply }), { data: quoteExample }),
    ...errors({ 401: true, 422: ["quote_not_found"] }),
  },
});

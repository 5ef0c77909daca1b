import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { createQuote, getQuote } from "@fintech/core/fx/quotes";
import {
  ECB_IMPORT_MAX_BYTES,
  importEcbRates,
  listRates,
  parseFxDays,
  rateHistory,
  setRate,
} from "@fintech/core/fx/rates";
import { AppError } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey } from "../http/idempotency";
import { requireAdmin, requireAuth } from "../http/middleware";
import { parseWith, readJson } from "../http/validate";
import { actorOf } from "./accounts";
import {
  createQuoteRoute,
  getQuoteRoute,
  importRatesRoute,
  listRatesRoute,
  rateHistoryRoute,
  setRateRoute,
} from "./fx.openapi";

/**
 * FX, mounted at /api/v1/fx: rates (any signed-in user reads them; administrators set them and
 * import the ECB file) and quotes (docs/money-operations.md#fx-and-treasury).
 */

const tooLarge = (c: Context<AppEnv>) =>
  c.json(
    { message: `The rates file must be at most ${ECB_IMPORT_MAX_BYTES / 1024} KB`, code: "payload_too_large" },
    413,
  );

const CsvJson = z.object({ csv: z.string({ error: "csv must be the file's text" }) }).strict();

/** The rates file: the text/csv body, or `csv` of a JSON body (what a browser form sends). */
async function readCsv(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/csv" || type === "text/plain") return c.req.text();
  if (type === "application/json") return parseWith(CsvJson, await readJson(c)).csv;
  throw new AppError(415, "unsupported_media_type", "Send the rates file as text/csv, or as JSON {csv}");
}

export const fxRoutes = $(
  new OpenAPIHono<AppEnv>()
    .use(requireAuth)
    .use("/rates/import", bodyLimit({ maxSize: ECB_IMPORT_MAX_BYTES, onError: tooLarge })),
)
  .openapi(listRatesRoute, async (c) => c.json({ data: await listRates(c.get("core")) }, 200))
  // The fixed path before /rates/{pair}: "import" is not a pair.
  .openapi({ ...importRatesRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json(await importEcbRates(c.get("core"), await readCsv(c), actorOf(c)), 200),
  )
  .openapi(rateHistoryRoute, async (c) =>
    c.json(await rateHistory(c.get("core"), c.req.param("pair"), parseFxDays(c.req.query("days"))), 200),
  )
  .openapi({ ...setRateRoute, middleware: [requireAdmin] as const }, async (c) => {
    const rate = await setRate(c.get("core"), c.req.param("pair"), await readJson(c), actorOf(c));
    return c.json({ message: `${rate.pair} rate saved`, data: rate }, 200);
  })
  .openapi(createQuoteRoute, async (c) => {
    const { quote, replayed } = await createQuote(
      c.get("core"),
      c.get("auth").userId,
      await readJson(c),
      idempotencyKey(c),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ data: quote }, 201);
  })
  .openapi(getQuoteRoute, async (c) =>
    c.json({ data: await getQuote(c.get("core"), c.get("auth").userId, c.req.param("id")) }, 200),
  );

import {
  ImportReply,
  PositionsReply,
  QuoteReply,
  RateHistoryReply,
  RateReply,
  RatesReply,
  RevenueReply,
  type FxPair,
} from "@fintech/core/fx/model";
import type { Currency } from "@fintech/core/money/model";
import type { z } from "zod";
import { appHttp } from "../api/appClient";
import type { HttpClient } from "../api/client";
import { ApiError } from "../api/errors";
import { segment, withQuery } from "../api/query";

/**
 * FX and treasury over the app's one client (docs/money-operations.md#fx-and-treasury): rates and
 * their history, quotes and the quoted transfer (any signed-in user), rate edits, the ECB import,
 * positions and revenue (administrators; the server answers others 403). Replies are read through
 * core's own schemas: a mismatch is an error, never a blank panel.
 */

const FX = "/api/v1/fx";
const TREASURY = "/api/v1/treasury";

function read<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return parsed.data;
}

export interface FxTransferReply {
  data: { id: string };
  fx: { quote_id: string; journals: { id: string; currency: Currency; total_amount: string }[] };
}

export function fxEndpoints(http: HttpClient) {
  return {
    async rates(signal?: AbortSignal): Promise<RateReply[]> {
      return read(RatesReply, await http.authCall<unknown>("GET", `${FX}/rates`, { signal }), "FX rates").data;
    },
    async history(pair: FxPair, days: number, signal?: AbortSignal): Promise<RateHistoryReply> {
      const path = withQuery(`${FX}/rates/${segment(pair)}/history`, { days });
      return read(RateHistoryReply, await http.authCall<unknown>("GET", path, { signal }), "Rate history");
    },
    async setRate(pair: FxPair, body: { rate?: string; spread?: string }): Promise<RateReply> {
      const reply = await http.authCall<{ data: unknown }>("PUT", `${FX}/rates/${segment(pair)}`, { body });
      return read(RateReply, reply.data, "Rate");
    },
    async importRates(csv: string): Promise<z.infer<typeof ImportReply>> {
      return read(ImportReply, await http.authCall<unknown>("POST", `${FX}/rates/import`, { body: { csv } }), "Import");
    },
    async quote(
      body: { fromCurrency: Currency; toCurrency: Currency; amount: string },
      idempotencyKey: string,
    ): Promise<QuoteReply> {
      const reply = await http.authCall<{ data: unknown }>("POST", `${FX}/quotes`, { body, idempotencyKey });
      return read(QuoteReply, reply.data, "Quote");
    },
    /** A transfer between two of the caller's accounts at a quote (two draft journals, one per currency). */
    async convert(
      body: { from_account_id: string; to_account_id: string; amount: string; quote_id: string },
      idempotencyKey: string,
    ): Promise<FxTransferReply> {
      return http.authCall<FxTransferReply>("POST", "/api/v1/ledger/transactions/transfer", { body, idempotencyKey });
    },
    async positions(signal?: AbortSignal) {
      return read(PositionsReply, await http.authCall<unknown>("GET", `${TREASURY}/positions`, { signal }), "Positions")
        .data;
    },
    async revenue(days: number, signal?: AbortSignal) {
      const path = withQuery(`${TREASURY}/revenue`, { days });
      return read(RevenueReply, await http.authCall<unknown>("GET", path, { signal }), "Revenue").data;
    },
  };
}

export const fxApi = fxEndpoints(appHttp);

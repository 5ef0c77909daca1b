import type { Context } from "hono";
import { badRequest } from "@fintech/core/shared/errors";
import type { WriteResult } from "@fintech/core/ledger/service";
import { IdempotencyKey } from "./openapi";

/** The optional Idempotency-Key header: 1 to 255 visible ASCII characters. */
export function idempotencyKey(c: Context): string | null {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return null;
  if (!IdempotencyKey.safeParse(key).success)
    throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters", "invalid_idempotency_key");
  return key;
}

/** Sends a write's stored reply as it is, so a replay is byte-for-byte the original. */
export function writeReply(c: Context, result: WriteResult, status: 200 | 201) {
  if (result.replayed) c.header("Idempotent-Replayed", "true");
  return c.body(result.body, status, { "Content-Type": "application/json; charset=UTF-8" });
}

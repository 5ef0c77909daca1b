import { randomId } from "../lib/uuid";
import type { RequestOptions } from "./client";
import type { WriteOptions } from "./types";

/**
 * Every write carries an Idempotency-Key. Screens pass one key per user action and reuse it on
 * retry; a call without one still gets a fresh key, so the header is never missing.
 */
export function writeRequest(body: unknown, options: WriteOptions = {}): RequestOptions {
  return { body, idempotencyKey: options.idempotencyKey ?? randomId(), signal: options.signal };
}

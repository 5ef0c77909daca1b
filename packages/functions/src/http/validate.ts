import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "@fintech/core/shared/errors";
import { parseWith } from "@fintech/core/shared/validation";

export { parseWith };

/** The request's JSON body, unvalidated; malformed JSON is a 400, never a 500. */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest("Request body must be valid JSON", "invalid_json");
  }
}

/** Reads and validates a JSON body. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(c));
}

export function queryWith<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

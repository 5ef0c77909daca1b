import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "@fintech/core/shared/errors";
import { parseWith } from "@fintech/core/shared/validation";

export { parseWith };

/** No request this API takes nests deeper than a few levels; anything deeper is refused unread. */
export const MAX_JSON_DEPTH = 32;

/**
 * How deeply a JSON text nests, counting brackets outside strings. Checked before JSON.parse so
 * that a body of 100,000 opening brackets never reaches the parser, the hasher or the logger
 * (recursive code there could overflow the stack, a 500).
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

/** Parses a JSON text from a client; malformed or too deeply nested JSON is a 400. */
export function parseJsonText(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw badRequest("Request body is nested too deeply", "invalid_json");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest("Request body must be valid JSON", "invalid_json");
  }
}

/** The request's JSON body, unvalidated; malformed JSON is a 400, never a 500. */
export async function readJson(c: Context): Promise<unknown> {
  return parseJsonText(await c.req.text());
}

/** Reads and validates a JSON body. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(c));
}

export function queryWith<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

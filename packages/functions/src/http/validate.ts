import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "@fintech/core/shared/errors";

/** The first problem, in words a person can act on; the spec's messages come from the schemas. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}`;
  if (issue.path.length === 0 && issue.code === "invalid_type") return "Request body must be a JSON object";
  return issue.message;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssue(parsed.error.issues[0]!));
  return parsed.data;
}

/** Reads and validates a JSON body; malformed JSON is a 400, never a 500. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest("Request body must be valid JSON", "invalid_json");
  }
  return parseWith(schema, body);
}

export function queryWith<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

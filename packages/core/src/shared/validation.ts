import type { z } from "zod";
import { badRequest } from "./errors";

/** The first problem, in words a person can act on; the product's messages (docs/product/) come from the schemas. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}`;
  if (issue.path.length === 0 && issue.code === "invalid_type") return "Request body must be a JSON object";
  return issue.message;
}

/** Parses untrusted input; failure is a 400 with the first issue's message, never a throw of ZodError. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssue(parsed.error.issues[0]!));
  return parsed.data;
}

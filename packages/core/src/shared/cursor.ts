import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "./derived-keys";
import { badRequest } from "./errors";

/**
 * Opaque, tamper-evident paging cursors. A cursor is the last key of a page, signed with HMAC
 * together with a hash of the query it came from (route, owner, filters): a cursor edited by
 * hand, taken from another user, another route or another filter set fails verification and is
 * a 400 `invalid_cursor`, never a DynamoDB call with a key outside the query's range.
 *
 * The MAC key is derived from the configured JWT_SECRET with its own purpose label (HKDF), so a
 * cursor signature can never stand in for a token signature or the other way round.
 */
export interface CursorBinding {
  secret: string;
  /** Everything that defines the query: route, owner, filters (not the page size). */
  scope: Record<string, unknown>;
}

const PURPOSE = "fintech/pagination-cursor/v1";
const macKey = (secret: string) => derivedKey(secret, PURPOSE);

/** Key order must not change the hash: {a, b} and {b, a} are the same query. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function mac(binding: CursorBinding, payload: string): Buffer {
  const scope = createHash("sha256").update(canonical(binding.scope)).digest("hex");
  return createHmac("sha256", macKey(binding.secret)).update(`${scope}\n${payload}`).digest();
}

export function signCursor(binding: CursorBinding, key: Record<string, string>): string {
  const payload = Buffer.from(JSON.stringify(key)).toString("base64url");
  return `${payload}.${mac(binding, payload).toString("base64url")}`;
}

/** Our cursors carry at most a few hundred bytes of key; anything longer was not made here. */
const MAX_CURSOR_LENGTH = 2000;

const invalid = () => badRequest("Invalid cursor", "invalid_cursor");

/** The key a cursor carries, if this query signed it; anything else is a 400. */
export function verifyCursor(binding: CursorBinding, cursor: string, keyNames: readonly string[]): Record<string, string> {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid();
  const [payload, signature, ...rest] = cursor.split(".");
  if (!payload || !signature || rest.length > 0) throw invalid();
  const given = Buffer.from(signature, "base64url");
  const expected = mac(binding, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const record = key as Record<string, unknown>;
  const wellFormed =
    typeof key === "object" && key !== null && !Array.isArray(key) &&
    Object.keys(record).length === keyNames.length &&
    keyNames.every((name) => typeof record[name] === "string");
  if (!wellFormed) throw invalid();
  return record as Record<string, string>;
}

import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { badRequest } from "./errors";
import type { Keyring, KeyVersion } from "./keyring";

/**
 * Opaque, tamper-evident paging cursors. A cursor is the last key of a page, signed with HMAC
 * together with a hash of the query it came from (route, owner, filters): a cursor edited by
 * hand, taken from another user, another route or another filter set fails verification and is
 * a 400 `invalid_cursor`, never a DynamoDB call with a key outside the query's range.
 *
 * The MAC key comes from CURSOR_KEYS under its own label (keyring.ts), so a cursor signature can
 * never stand in for a feed cursor or a stream ticket, nor the other way round. Cursors are signed
 * with the newest version and verified under any retained one, so a rotation does not break a
 * listing someone is paging through.
 */
export interface CursorBinding {
  /** CURSOR_KEYS. */
  secret: Keyring;
  /** Everything that defines the query: route, owner, filters (not the page size). */
  scope: Record<string, unknown>;
}

const LABEL = "fintech/pagination-cursor/v1";

/** Key order must not change the hash: {a, b} and {b, a} are the same query. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function mac(version: KeyVersion, binding: CursorBinding, payload: string): Buffer {
  const scope = createHash("sha256").update(canonical(binding.scope)).digest("hex");
  return createHmac("sha256", version.key(LABEL)).update(`${scope}\n${payload}`).digest();
}

export function signCursor(binding: CursorBinding, key: Record<string, string>): string {
  const payload = Buffer.from(JSON.stringify(key)).toString("base64url");
  return `${payload}.${mac(binding.secret.current, binding, payload).toString("base64url")}`;
}

/** Our cursors carry at most a few hundred bytes of key; anything longer was not made here. */
const MAX_CURSOR_LENGTH = 2000;

const invalid = () => badRequest("Invalid cursor", "invalid_cursor");

/** The key a cursor carries, if this query signed it; anything else is a 400. */
export function verifyCursor(
  binding: CursorBinding,
  cursor: string,
  keyNames: readonly string[],
): Record<string, string> {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid();
  const [payload, signature, ...rest] = cursor.split(".");
  if (!payload || !signature || rest.length > 0) throw invalid();
  const given = Buffer.from(signature, "base64url");
  const signedHere = binding.secret.versions.some((version) => {
    const expected = mac(version, binding, payload);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signedHere) throw invalid();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const record = key as Record<string, unknown>;
  const wellFormed =
    typeof key === "object" &&
    key !== null &&
    !Array.isArray(key) &&
    Object.keys(record).length === keyNames.length &&
    keyNames.every((name) => typeof record[name] === "string");
  if (!wellFormed) throw invalid();
  return record as Record<string, string>;
}

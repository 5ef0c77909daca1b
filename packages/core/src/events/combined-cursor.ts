import { badRequest } from "../shared/errors";
import { MAX_CURSOR_LENGTH } from "./cursor";

/**
 * The resume id of one stream that carries several feeds (the browser's one live connection):
 * each feed's own signed cursor (cursor.ts), named by the feed it belongs to, as
 * `ledger=<cursor>,kyc=<cursor>`. Each part stays bound to its feed's scope by its own signature,
 * so a part moved to another feed or another user's stream is refused like any forged cursor;
 * the names only say which feed a part resumes.
 */
const PART_SEPARATOR = ",";
const NAME_SEPARATOR = "=";

const invalid = () => badRequest("Invalid Last-Event-ID: reconnect without one to start from now", "invalid_event_id");

export function joinCursors(parts: readonly (readonly [name: string, signedCursor: string])[]): string {
  return parts.map(([name, signed]) => `${name}${NAME_SEPARATOR}${signed}`).join(PART_SEPARATOR);
}

/**
 * The signed cursor of each named feed in a combined id. `names` are the feeds a combined id may
 * name at all (a stream may resume with an id from a connection that carried other feeds than
 * it does); anything else, a repeated name or an oversized id is a 400 before the stream starts.
 */
export function splitCursors(text: string, names: readonly string[]): Map<string, string> {
  if (text.length > names.length * (MAX_CURSOR_LENGTH + 64)) throw invalid();
  const parts = new Map<string, string>();
  for (const part of text.split(PART_SEPARATOR)) {
    const at = part.indexOf(NAME_SEPARATOR);
    const name = part.slice(0, at);
    const signed = part.slice(at + 1);
    if (at < 1 || !names.includes(name) || parts.has(name) || signed.length === 0 || signed.length > MAX_CURSOR_LENGTH)
      throw invalid();
    parts.set(name, signed);
  }
  return parts;
}

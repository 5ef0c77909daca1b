import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { sessionKey, SESSION_SORT_PREFIX } from "./keys";
import type { SessionView } from "./model";
import { isSessionActive } from "./sessions";
import type { StoredUser } from "./users";

/**
 * What the sessions list shows: one item per signed-in session beside the user's profile, written
 * at sign-in, with a coarse device (from the User-Agent, nothing finer), when it started and when
 * it was last seen. Whether a session is still on is decided elsewhere (sessions.ts, on the user
 * item); a record only describes it, and the table's TTL drops it when its token expires.
 */

/** Where a sign-in came from, as far as the sessions list describes it. */
export interface SessionOrigin {
  userAgent?: string | null;
}

/** Last seen is written at most this often per session and process: a request costs no write. */
export const SESSION_SEEN_INTERVAL_MS = 5 * 60 * 1000;
/** The sessions list shows at most this many (a user with more has stale ones that expire). */
export const MAX_LISTED_SESSIONS = 50;
const MAX_USER_AGENT_LENGTH = 512;

const SessionRecord = z.object({
  session_id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** Epoch seconds: the token's expiry, and the table's TTL. */
  expires_at: z.number().int(),
  device: z.string(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrom(e|ium)\/|\bCriOS\//, "Chrome"],
  [/\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
  [/\b(node|undici|axios|python-requests|Go-http-client|okhttp)\b/i, "a script"],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bLinux\b/, "Linux"],
];

/**
 * "Firefox on Linux", "Safari on iPhone", "curl", "Unknown device": enough to recognise a device,
 * too coarse to track one.
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const agent = (userAgent ?? "").slice(0, MAX_USER_AGENT_LENGTH);
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown device");
}

/** Writes the record of a session that just started (or was re-issued, keeping its `createdAt` and device). */
export async function recordSession(
  ctx: CoreContext,
  userId: string,
  sessionId: string,
  expiresAt: number,
  described: { origin?: SessionOrigin; createdAt?: string; device?: string } = {},
): Promise<void> {
  const now = ctx.clock().toISOString();
  const record: SessionRecord = {
    session_id: sessionId,
    created_at: described.createdAt ?? now,
    last_seen_at: now,
    expires_at: expiresAt,
    device: described.device ?? describeDevice(described.origin?.userAgent),
  };
  await ctx.db.doc.send(
    new PutCommand({
      TableName: ctx.db.table,
      Item: { ...sessionKey(userId, sessionId), entity: "session", user_id: userId, ...record },
    }),
  );
}

export async function findSessionRecord(
  ctx: CoreContext,
  userId: string,
  sessionId: string,
): Promise<SessionRecord | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: sessionKey(userId, sessionId), ConsistentRead: true }),
  );
  const parsed = SessionRecord.safeParse(reply.Item);
  return parsed.success ? parsed.data : null;
}

export async function deleteSessionRecord(ctx: CoreContext, userId: string, sessionId: string): Promise<void> {
  await ctx.db.doc.send(new DeleteCommand({ TableName: ctx.db.table, Key: sessionKey(userId, sessionId) }));
}

/** When this process last wrote each session's last-seen time (bounded; the oldest entries go first). */
const lastWritten = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

/**
 * Notes that a session made a request, at most every SESSION_SEEN_INTERVAL_MS per process. A
 * failed write only loses a last-seen time: it is logged, never the request's failure.
 */
export async function touchSession(ctx: CoreContext, userId: string, sessionId: string): Promise<void> {
  const nowMs = ctx.clock().getTime();
  const memo = `${userId}/${sessionId}`;
  const previous = lastWritten.get(memo);
  if (previous !== undefined && nowMs - previous < SESSION_SEEN_INTERVAL_MS && nowMs >= previous) return;
  lastWritten.delete(memo);
  lastWritten.set(memo, nowMs);
  if (lastWritten.size > MAX_REMEMBERED) lastWritten.delete(lastWritten.keys().next().value!);
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: sessionKey(userId, sessionId),
        UpdateExpression: "SET last_seen_at = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":now": new Date(nowMs).toISOString() },
      }),
    );
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException")) return;
    // The feeds function's role only reads the user's partition: a stream leaves last-seen to the API's requests.
    if (isAwsError(error, "AccessDeniedException")) return;
    ctx.logger.warn("session last-seen not recorded", { user_id: userId, error });
  }
}

/** The user's sessions that are still on, the current one first, then the most recently seen. */
export async function listSessions(
  ctx: CoreContext,
  user: StoredUser,
  currentSessionId: string | null,
): Promise<SessionView[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": sessionKey(user.id, "").pk, ":prefix": SESSION_SORT_PREFIX },
      ConsistentRead: true,
      Limit: MAX_LISTED_SESSIONS * 4,
    }),
  );
  const nowSeconds = Math.floor(ctx.clock().getTime() / 1000);
  return (reply.Items ?? [])
    .flatMap((item) => {
      const parsed = SessionRecord.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    })
    .filter((record) => record.expires_at > nowSeconds && isSessionActive(user, record.session_id))
    .map((record) => ({
      id: record.session_id,
      current: record.session_id === currentSessionId,
      created_at: record.created_at,
      last_seen_at: record.last_seen_at,
      expires_at: new Date(record.expires_at * 1000).toISOString(),
      device: record.device,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at))
    .slice(0, MAX_LISTED_SESSIONS);
}

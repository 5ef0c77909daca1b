import { createHash } from "node:crypto";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Database } from "./dynamo";
import { tooManyRequests } from "./errors";

/** Every rate-limit item's partition key starts with this; nothing else in the table does. */
export const RATE_LIMIT_PREFIX = "RATE#";

export interface RateLimitRule {
  /** What is limited, e.g. "login:ip". A short constant, never client input. */
  scope: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The key part for a subject made of client input (an email, an address, or several of them).
 * Hashed, so whatever a client sends (3,000 characters, control characters, empty) the key has
 * a fixed length and is valid for DynamoDB, and the table holds no raw emails or addresses.
 */
export function rateLimitSubject(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("base64url");
}

const windowOf = (rule: RateLimitRule, now: Date) => {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const start = nowSeconds - (nowSeconds % rule.windowSeconds);
  return { nowSeconds, start, end: start + rule.windowSeconds };
};

const counterKey = (rule: RateLimitRule, subject: string, windowStart: number) => ({
  pk: `${RATE_LIMIT_PREFIX}${rule.scope}#${subject}`,
  sk: `WINDOW#${windowStart}`,
});

/**
 * Fixed-window counter kept in the table, so every Lambda instance sees the same count. One
 * atomic UpdateItem per attempt; the item expires through the table's TTL after its window.
 * `subject` must come from rateLimitSubject (or be a short constant).
 */
export async function consumeRateLimit(db: Database, rule: RateLimitRule, subject: string, now: Date): Promise<void> {
  const window = windowOf(rule, now);
  const reply = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: counterKey(rule, subject, window.start),
      UpdateExpression: "ADD attempts :one SET expires_at = :expires",
      ExpressionAttributeValues: { ":one": 1, ":expires": window.end + 60 },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  const attempts = Number(reply.Attributes?.attempts ?? 0);
  if (attempts > rule.limit) throw tooManyRequests(window.end - window.nowSeconds);
}

/** A remembered fact about a subject (e.g. "this address signed in to this account"), with a lifetime. */
export async function rememberSubject(
  db: Database,
  scope: string,
  subject: string,
  now: Date,
  ttlSeconds: number,
): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        pk: `${RATE_LIMIT_PREFIX}${scope}#${subject}`,
        sk: "KNOWN",
        expires_at: Math.floor(now.getTime() / 1000) + ttlSeconds,
      },
    }),
  );
}

/** Whether rememberSubject was called for this subject and its lifetime has not run out. */
export async function isRememberedSubject(db: Database, scope: string, subject: string, now: Date): Promise<boolean> {
  const reply = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: { pk: `${RATE_LIMIT_PREFIX}${scope}#${subject}`, sk: "KNOWN" } }),
  );
  const expiresAt = Number(reply.Item?.expires_at ?? 0);
  // TTL deletion is lazy (up to days in the cloud), so the expiry is checked here too.
  return expiresAt > Math.floor(now.getTime() / 1000);
}

import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Database } from "./dynamo";
import { tooManyRequests } from "./errors";

export interface RateLimitRule {
  /** What is limited, e.g. "login:ip". */
  scope: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counter kept in the table, so every Lambda instance sees the same count. One
 * atomic UpdateItem per attempt; the item expires through the table's TTL after its window.
 */
export async function consumeRateLimit(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<void> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const reply = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: { pk: `RATE#${rule.scope}#${subject}`, sk: `WINDOW#${windowStart}` },
      UpdateExpression: "ADD attempts :one SET expires_at = :expires",
      ExpressionAttributeValues: { ":one": 1, ":expires": windowEnd + 60 },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  const attempts = Number(reply.Attributes?.attempts ?? 0);
  if (attempts > rule.limit) throw tooManyRequests(windowEnd - nowSeconds);
}

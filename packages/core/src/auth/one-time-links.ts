import { createHmac, randomBytes } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import type { KeyVersion } from "../shared/keyring";
import { ONE_TIME_TOKEN_LENGTH } from "./model";

/**
 * The secret of a mailed one-time link (password reset, email verification): 32 random bytes,
 * base64url. Only its HMAC is stored, keyed with API_KEY_HASH_KEYS under the link kind's own
 * label, as the key of the pending item: whoever reads the table cannot use a link, and a secret
 * of one kind never matches an item of another.
 */
export interface LinkKind {
  /** The HMAC label, e.g. "fintech/password-reset-token/v1". */
  label: string;
  keyOf(tokenHash: string): { pk: string; sk: string };
}

export const newLinkToken = (): string => randomBytes(32).toString("base64url");

const hashOf = (version: KeyVersion, label: string, token: string) =>
  createHmac("sha256", version.key(label)).update(token).digest("base64url");

/** Where a new link's item goes (under the newest key version), and that version's name. */
export function linkItemKey(
  ctx: CoreContext,
  kind: LinkKind,
  token: string,
): { key: { pk: string; sk: string }; hashVersion: string } {
  const version = ctx.config.API_KEY_HASH_KEYS.current;
  return { key: kind.keyOf(hashOf(version, kind.label, token)), hashVersion: version.version };
}

/** The pending item a link's secret stands for, under the newest retained key version that has it. */
export async function findLinkItem(
  ctx: CoreContext,
  kind: LinkKind,
  token: string,
): Promise<{ key: { pk: string; sk: string }; item: Record<string, unknown> } | null> {
  if (token.length !== ONE_TIME_TOKEN_LENGTH) return null;
  for (const version of ctx.config.API_KEY_HASH_KEYS.versions) {
    const key = kind.keyOf(hashOf(version, kind.label, token));
    const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: key, ConsistentRead: true }));
    if (reply.Item) return { key, item: reply.Item };
  }
  return null;
}

/** Epoch seconds of `now`, the unit of a link's `expires_at` (also the table's TTL attribute). */
export const epochSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

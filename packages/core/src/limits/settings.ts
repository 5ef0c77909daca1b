import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { badRequest, conflict } from "../shared/errors";
import { describeIssue } from "../shared/validation";
import { DEFAULT_MONEY_LIMITS } from "./default-limits";
import { LIMITS_CHANGE_PREFIX, LIMITS_PARTITION, moneyLimitsChangeKey, moneyLimitsKey } from "./keys";
import {
  LIMIT_MESSAGES,
  limitsFromInput,
  LimitsEditor,
  MoneyLimits,
  MoneyLimitsInput,
  StoredMoneyLimits,
} from "./model";

/**
 * The limits in force, as data an administrator edits: one item, absent until the first edit
 * (the seeded defaults apply, version 0). Every edit replaces the whole table under the version
 * the admin read and writes a change item (who, when, before, after) in the same transaction.
 */

const HISTORY_LIMIT = 20;

export const SEEDED_LIMITS: StoredMoneyLimits = {
  ...DEFAULT_MONEY_LIMITS,
  version: 0,
  updated_at: null,
  updated_by: null,
};

export const LimitsChange = z.object({
  version: z.number().int().positive(),
  at: z.string(),
  by: LimitsEditor,
  before: MoneyLimits,
  after: MoneyLimits,
});
export type LimitsChange = z.infer<typeof LimitsChange>;

const rulesOf = (stored: StoredMoneyLimits): MoneyLimits => MoneyLimits.parse(stored);

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A table saved before a currency existed lacks it: that currency takes the seeded figure of the
 * same level, movement and window (never "unlimited"), until an administrator saves the table.
 */
export function withSeededCurrencies<T>(limits: T): T {
  if (!isObject(limits)) return limits;
  const filled: Loose = { ...limits };
  for (const [level, movements] of Object.entries(DEFAULT_MONEY_LIMITS) as [string, Loose][]) {
    const storedLevel = filled[level];
    if (!isObject(storedLevel)) continue;
    const nextLevel: Loose = { ...storedLevel };
    for (const [movement, windows] of Object.entries(movements)) {
      const storedWindows = nextLevel[movement];
      if (!isObject(storedWindows) || !isObject(windows)) continue;
      const nextWindows: Loose = { ...storedWindows };
      for (const [window, seeded] of Object.entries(windows)) {
        if (isObject(nextWindows[window]) && isObject(seeded))
          nextWindows[window] = { ...seeded, ...(nextWindows[window] as Loose) };
      }
      nextLevel[movement] = nextWindows;
    }
    filled[level] = nextLevel;
  }
  return filled as T;
}

/** The limits in force (strongly consistent: an edit applies to the next request). */
export async function getMoneyLimits(ctx: CoreContext): Promise<StoredMoneyLimits> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: moneyLimitsKey(), ConsistentRead: true }),
  );
  return reply.Item ? StoredMoneyLimits.parse(withSeededCurrencies(reply.Item)) : SEEDED_LIMITS;
}

/** The last changes, newest first. */
export async function moneyLimitsHistory(ctx: CoreContext): Promise<LimitsChange[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": LIMITS_PARTITION, ":prefix": LIMITS_CHANGE_PREFIX },
      ScanIndexForward: false,
      Limit: HISTORY_LIMIT,
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? []).map((item) =>
    LimitsChange.parse({ ...item, before: withSeededCurrencies(item.before), after: withSeededCurrencies(item.after) }),
  );
}

/** The edit as limits; a 400 naming the field (e.g. "verified.deposit.day.USD: ...") otherwise. */
function parseEdit(body: unknown): { version: number; limits: MoneyLimits } {
  const parsed = MoneyLimitsInput.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join(".");
    throw badRequest(
      path && issue.code !== "unrecognized_keys" ? `${path}: ${describeIssue(issue)}` : describeIssue(issue),
    );
  }
  const limits = limitsFromInput(parsed.data);
  if (!limits.ok) throw badRequest(limits.message);
  return { version: parsed.data.version, limits: limits.limits };
}

/**
 * Replaces the limits (PUT /api/v1/limits/settings). 409 `limits_changed` when they changed
 * since the version the admin read; the same table again writes nothing.
 */
export async function replaceMoneyLimits(
  ctx: CoreContext,
  body: unknown,
  editor: LimitsEditor,
): Promise<StoredMoneyLimits> {
  const edit = parseEdit(body);
  return saveMoneyLimits(ctx, edit.version, edit.limits, editor);
}

/** Writes limits already checked (limitsFromInput, or a test's own) over the version read. */
export async function saveMoneyLimits(
  ctx: CoreContext,
  readVersion: number,
  limits: MoneyLimits,
  editor: LimitsEditor,
): Promise<StoredMoneyLimits> {
  const current = await getMoneyLimits(ctx);
  if (readVersion !== current.version) throw conflict(LIMIT_MESSAGES.limitsChanged(current.version), "limits_changed");
  const before = rulesOf(current);
  if (JSON.stringify(before) === JSON.stringify(limits)) return current;
  const at = ctx.clock().toISOString();
  const version = current.version + 1;
  const next: StoredMoneyLimits = { ...limits, version, updated_at: at, updated_by: editor };
  const change: LimitsChange = { version, at, by: editor, before, after: limits };
  const guard =
    current.version === 0
      ? { ConditionExpression: "attribute_not_exists(pk)" }
      : { ConditionExpression: "version = :seen", ExpressionAttributeValues: { ":seen": current.version } };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: { TableName: ctx.db.table, Item: { ...moneyLimitsKey(), entity: "money_limits", ...next }, ...guard },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...moneyLimitsChangeKey(version), entity: "money_limits_change", ...change },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict")) {
      throw conflict(LIMIT_MESSAGES.limitsChanged((await getMoneyLimits(ctx)).version), "limits_changed");
    }
    throw error;
  }
  ctx.logger.info("money limits changed", { version, by: editor.id });
  return next;
}

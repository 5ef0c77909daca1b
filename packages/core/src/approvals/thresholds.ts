import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { badRequest, conflict } from "../shared/errors";
import { isAwsError } from "../shared/dynamo";
import { parseWith } from "../shared/validation";
import { CURRENCIES, parseAmount, toDecimalString, type Currency } from "../money/model";
import { DEFAULT_FOUR_EYES_THRESHOLDS } from "./default-thresholds";
import { thresholdsKey } from "./keys";
import {
  APPROVAL_MESSAGES,
  FOUR_EYES_KINDS,
  ThresholdEditInput,
  type FourEyesKind,
  type Reviewer,
  type ThresholdsView,
  type ThresholdTable,
} from "./model";

/**
 * The four-eyes thresholds: the seeded defaults, overlaid by what administrators set (one
 * versioned item; an edit is conditional on the version it read, so two edits at once cannot
 * lose one). Read on every deposit post and payment, strongly consistent: a lowered threshold
 * holds from the next request on.
 */

const StoredThresholds = z.object({
  thresholds: z.record(z.string(), z.record(z.string(), z.number().int().positive())),
  version: z.number().int().min(1),
  updated_at: z.string(),
  updated_by: z.string(),
});

const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];

function defaultTable(): ThresholdTable {
  const table = {} as ThresholdTable;
  for (const kind of FOUR_EYES_KINDS) {
    table[kind] = {} as Record<Currency, number>;
    for (const currency of CURRENCY_CODES) {
      const parsed = parseAmount(DEFAULT_FOUR_EYES_THRESHOLDS[kind][currency], currency);
      if (!parsed.ok)
        throw new Error(`Default four-eyes threshold ${kind} ${currency} is not an amount: ${parsed.message}`);
      table[kind][currency] = parsed.minor;
    }
  }
  return table;
}

/** A seeded threshold in minor units (what holds until an administrator sets one). */
export const seededThreshold = (kind: FourEyesKind, currency: Currency): number => defaultTable()[kind][currency];

export interface Thresholds {
  table: ThresholdTable;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

export async function readThresholds(ctx: CoreContext): Promise<Thresholds> {
  const table = defaultTable();
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: thresholdsKey(), ConsistentRead: true }),
  );
  if (!reply.Item) return { table, version: 0, updatedAt: null, updatedBy: null };
  const stored = StoredThresholds.parse(reply.Item);
  for (const kind of FOUR_EYES_KINDS) {
    for (const currency of CURRENCY_CODES) {
      const minor = stored.thresholds[kind]?.[currency];
      if (minor !== undefined) table[kind][currency] = minor;
    }
  }
  return { table, version: stored.version, updatedAt: stored.updated_at, updatedBy: stored.updated_by };
}

/** The threshold of one kind and currency, in minor units. */
export async function thresholdFor(ctx: CoreContext, kind: FourEyesKind, currency: Currency): Promise<number> {
  return (await readThresholds(ctx)).table[kind][currency];
}

export function thresholdsView(thresholds: Thresholds): ThresholdsView {
  return {
    thresholds: FOUR_EYES_KINDS.flatMap((kind) =>
      CURRENCY_CODES.map((currency) => ({
        kind,
        currency,
        amount: toDecimalString(thresholds.table[kind][currency], currency),
        amount_minor: thresholds.table[kind][currency],
      })),
    ),
    version: thresholds.version,
    updated_at: thresholds.updatedAt,
    updated_by: thresholds.updatedBy,
  };
}

/** An administrator sets one threshold (400 for a bad amount, 409 when another edit came first). */
export async function updateThreshold(ctx: CoreContext, reviewer: Reviewer, body: unknown): Promise<Thresholds> {
  const input = parseWith(ThresholdEditInput, body);
  const amount = parseAmount(input.amount, input.currency);
  if (!amount.ok) throw badRequest(`${APPROVAL_MESSAGES.thresholdAmount}: ${amount.message}`, "invalid_amount");
  const current = await readThresholds(ctx);
  const table: ThresholdTable = {
    ...current.table,
    [input.kind]: { ...current.table[input.kind], [input.currency]: amount.minor },
  };
  const at = ctx.clock().toISOString();
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: {
          ...thresholdsKey(),
          entity: "four_eyes_thresholds",
          thresholds: table,
          version: current.version + 1,
          updated_at: at,
          updated_by: reviewer.email,
        },
        ConditionExpression: current.version === 0 ? "attribute_not_exists(pk)" : "version = :seen",
        ...(current.version === 0 ? {} : { ExpressionAttributeValues: { ":seen": current.version } }),
      }),
    );
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException"))
      throw conflict(APPROVAL_MESSAGES.thresholdsChanged, "thresholds_changed");
    throw error;
  }
  return { table, version: current.version + 1, updatedAt: at, updatedBy: reviewer.email };
}

// The package without its Node entry (see payments/payees.ts): checking a code needs no language.
import countries from "i18n-iso-countries/index.js";
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { badRequest, conflict, notFound, serviceUnavailable } from "../shared/errors";
import { railChangeKey, railKey, railPartition, railRegistryKey, RAIL_CHANGE_PREFIX } from "./keys";
import { isRailId, Rail, RailChange, type RailStatus } from "./model";
import { RAIL_MESSAGES, railPatchFromEdit, type RailEditParsed, type RailPatch } from "./edit-form";
import { SEED_ACTOR, SEED_RAILS, upgradeStoredRail } from "./seed-rails";

/**
 * Rails in the table: one item per rail (RAIL#<id> / META) with a version, one history item per
 * admin change (RAIL#<id> / CHG#<version>: who, when, the changed fields before and after), and
 * the registry (RAILS / REGISTRY) listing the rail ids.
 *
 * Seeding: the first read that finds no registry writes the registry and the seeded rails (the six
 * sample rails and UPI) (seed-rails.ts) in ONE transaction, every item conditional on not existing.
 * Of instances racing to seed, one transaction commits; the others are cancelled (condition failed
 * or transaction conflict) and read what it wrote. So the rails are seeded exactly once, and an
 * admin's later edit is never overwritten by a seed.
 *
 * Every change (edit, start, stop) is a transaction of the rail, conditional on the version that
 * was read, and its history item: a change made in between is a 409, never a lost update.
 */

const ENTITY = "payment_rail";
const CHANGE_ENTITY = "payment_rail_change";
const SEED_ATTEMPTS = 5;
const HISTORY_LIMIT = 20;

export const RAIL_ID_MESSAGE = "A rail id is 1 to 40 lowercase letters, digits or dashes (e.g. ach, sepa)";

/** A stored item without its table keys, for the schemas. */
function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest;
}

const railItem = (rail: Rail) => ({ ...railKey(rail.id), entity: ENTITY, ...rail });

/** A stored rail item read with the current schema (fields added since it was written come from its seeded row). */
const parseRail = (item: Record<string, unknown>): Rail => Rail.parse(upgradeStoredRail(withoutKeys(item)));

/** Refuses an id that is not a rail id before it goes into a key (400, never a 500 or a scan). */
export function checkRailId(railId: string): string {
  if (!isRailId(railId)) throw badRequest(RAIL_ID_MESSAGE, "invalid_rail_id");
  return railId;
}

async function readRegistry(ctx: CoreContext): Promise<string[] | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: railRegistryKey(), ConsistentRead: true }),
  );
  const ids = reply.Item?.ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : null;
}

/** Writes the registry and the sample rails, all or nothing, only where nothing is stored. */
async function writeSeed(ctx: CoreContext): Promise<void> {
  const at = ctx.clock().toISOString();
  const rails: Rail[] = SEED_RAILS.map((seed) => ({
    ...seed,
    lastPing: null,
    version: 1,
    updated_at: at,
    updated_by: SEED_ACTOR,
    lastChange: null,
  }));
  const condition = "attribute_not_exists(pk)";
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: {
                ...railRegistryKey(),
                entity: "payment_rail_registry",
                ids: rails.map((rail) => rail.id),
                seeded_at: at,
              },
              ConditionExpression: condition,
            },
          },
          ...rails.map((rail) => ({
            Put: { TableName: ctx.db.table, Item: railItem(rail), ConditionExpression: condition },
          })),
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    // Another instance seeded (or is seeding) at the same time: its write is the one that counts.
    if (!codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict")) throw error;
  }
}

/**
 * A rail seeded after this deployment's first seed (UPI, say): the rail and its id appended to the
 * registry, in one transaction, only where neither exists yet. Racing instances: one commits.
 */
async function addSeededRail(ctx: CoreContext, seed: (typeof SEED_RAILS)[number]): Promise<void> {
  const at = ctx.clock().toISOString();
  const rail: Rail = { ...seed, lastPing: null, version: 1, updated_at: at, updated_by: SEED_ACTOR, lastChange: null };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: ctx.db.table, Item: railItem(rail), ConditionExpression: "attribute_not_exists(pk)" } },
          {
            Update: {
              TableName: ctx.db.table,
              Key: railRegistryKey(),
              UpdateExpression: "SET ids = list_append(ids, :id)",
              ConditionExpression: "attribute_exists(ids) AND NOT contains(ids, :rail)",
              ExpressionAttributeValues: { ":id": [rail.id], ":rail": rail.id },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict")) throw error;
  }
}

/** The rail ids, seeding the sample rails first if nothing was ever seeded (and adding rails seeded since). */
async function railIds(ctx: CoreContext): Promise<string[]> {
  for (let attempt = 0; attempt < SEED_ATTEMPTS; attempt += 1) {
    const ids = await readRegistry(ctx);
    const missing = ids ? SEED_RAILS.filter((seed) => !ids.includes(seed.id)) : [];
    if (ids && missing.length > 0) {
      for (const seed of missing) await addSeededRail(ctx, seed);
      continue;
    }
    if (ids) return ids;
    // A racing seed may still be committing (TransactionConflict): give it a moment before re-reading.
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    await writeSeed(ctx);
  }
  throw serviceUnavailable("The payment rails could not be read yet; please retry shortly", 1);
}

/** Every rail, in console order (seeding on first use). */
export async function listRails(ctx: CoreContext): Promise<Rail[]> {
  const ids = await railIds(ctx);
  if (ids.length === 0) return [];
  const found = new Map<string, Rail>();
  let keys: Record<string, unknown>[] | undefined = ids.map((id) => railKey(id));
  for (let round = 0; keys && keys.length > 0 && round < 10; round += 1) {
    const reply: {
      Responses?: Record<string, Record<string, unknown>[]>;
      UnprocessedKeys?: Record<string, { Keys?: Record<string, unknown>[] }>;
    } = await ctx.db.doc.send(
      new BatchGetCommand({ RequestItems: { [ctx.db.table]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of reply.Responses?.[ctx.db.table] ?? []) {
      const rail = parseRail(item);
      found.set(rail.id, rail);
    }
    keys = reply.UnprocessedKeys?.[ctx.db.table]?.Keys;
  }
  return ids.flatMap((id) => {
    const rail = found.get(id);
    return rail ? [rail] : [];
  });
}

async function readRail(ctx: CoreContext, railId: string): Promise<Rail | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: railKey(railId), ConsistentRead: true }),
  );
  return reply.Item ? parseRail(reply.Item) : null;
}

/** One rail; an unknown id is a 404 (the seed is written first if nothing was seeded yet). */
export async function getRail(ctx: CoreContext, railId: string): Promise<Rail> {
  checkRailId(railId);
  let rail = await readRail(ctx, railId);
  if (!rail && !(await readRegistry(ctx))) {
    await railIds(ctx);
    rail = await readRail(ctx, railId);
  }
  if (!rail) throw notFound(`Rail ${railId} does not exist`, "rail_not_found");
  return rail;
}

/** The rail's admin changes, newest first (at most 20). */
export async function railHistory(ctx: CoreContext, railId: string): Promise<RailChange[]> {
  checkRailId(railId);
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": railPartition(railId), ":prefix": RAIL_CHANGE_PREFIX },
      ScanIndexForward: false,
      Limit: HISTORY_LIMIT,
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? []).map((item) => RailChange.parse(withoutKeys(item)));
}

type ChangeAction = RailChange["action"];

/** The fields of `patch` that differ from the rail, before and after. */
function differences(
  rail: Rail,
  patch: Partial<RailPatch>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch) as [keyof RailPatch, unknown][]) {
    // Lists (currencies, countries) compare by content.
    if (JSON.stringify(rail[field]) !== JSON.stringify(value)) {
      before[field] = rail[field];
      after[field] = value;
    }
  }
  return { before, after };
}

/**
 * Applies a change to the rail as read (version `rail.version`): the rail and its history item in
 * one transaction, conditional on that version. Nothing differs: nothing is written.
 */
async function applyChange(
  ctx: CoreContext,
  rail: Rail,
  patch: Partial<RailPatch>,
  action: ChangeAction,
  actor: string,
): Promise<Rail> {
  const { before, after } = differences(rail, patch);
  if (Object.keys(after).length === 0) return rail;
  const at = ctx.clock().toISOString();
  const version = rail.version + 1;
  const change: RailChange = { version, action, at, by: actor, before, after };
  const next: Rail = Rail.parse({ ...rail, ...patch, version, updated_at: at, updated_by: actor, lastChange: change });
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: railItem(next),
              ConditionExpression: "version = :seen",
              ExpressionAttributeValues: { ":seen": rail.version },
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...railChangeKey(rail.id, version), entity: CHANGE_ENTITY, railId: rail.id, ...change },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict"))
      throw conflict(
        `Rail ${rail.name} was changed by someone else while saving; reload it and try again`,
        "rail_changed",
      );
    throw error;
  }
  return next;
}

/**
 * An admin's edit (the form of docs/product/payment-rails.md#validation, parsed by RailEditInput).
 * With `version`, a rail changed since that version is not overwritten (409). Rail names are
 * unique: routing names rails by name.
 */
export async function updateRail(ctx: CoreContext, railId: string, edit: RailEditParsed, actor: string): Promise<Rail> {
  const rail = await getRail(ctx, railId);
  if (edit.version !== undefined && edit.version !== rail.version)
    throw conflict(
      `Rail ${rail.name} is at version ${rail.version} (changed by ${rail.updated_by}), not ${edit.version}; reload it before saving`,
      "rail_changed",
    );
  let patch: RailPatch;
  try {
    patch = railPatchFromEdit(edit, rail);
  } catch (error) {
    if (error instanceof RangeError) throw badRequest(error.message, "validation_error");
    throw error;
  }
  const unknownCountry = patch.countries.find((entry) => entry.length === 2 && !countries.isValid(entry));
  if (unknownCountry) throw badRequest(RAIL_MESSAGES.unknownCountry(unknownCountry), "validation_error");
  if (patch.name.toLowerCase() !== rail.name.toLowerCase()) {
    const others = await listRails(ctx);
    if (others.some((other) => other.id !== rail.id && other.name.toLowerCase() === patch.name.toLowerCase()))
      throw conflict(`Another rail is already called ${patch.name}`, "rail_name_taken");
  }
  return applyChange(ctx, rail, patch, "update", actor);
}

/** Start (-> active) or stop (-> down) a rail; already there: unchanged, nothing written. */
export async function setRailRunning(ctx: CoreContext, railId: string, running: boolean, actor: string): Promise<Rail> {
  const rail = await getRail(ctx, railId);
  const status: RailStatus = running ? "active" : "down";
  return applyChange(ctx, rail, { status }, running ? "start" : "stop", actor);
}

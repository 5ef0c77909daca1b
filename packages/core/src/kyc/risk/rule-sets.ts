import { GetCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { cancellationCodes, isAwsError, queryAll, type Database } from "../../shared/dynamo";
import { badRequest, conflict, notFound } from "../../shared/errors";
import {
  publishedRuleSetKey,
  ruleSetDraftKey,
  ruleSetVersionKey,
  RULES_PARTITION,
  RULE_SET_VERSION_PREFIX,
} from "../keys";
import { requireSubmission } from "../submissions";
import { evaluateRuleSet, parseRuleSetBody, type VersionedRuleSet } from "./engine";
import { computeFacts, DEFAULT_FACT_SOURCES, NEUTRAL_FACTS, type FactSources } from "./facts";
import { PublishedRuleSet, RuleSetBody, RuleSetDraft, type DryRunResult, type RulesOverview } from "./model";
import { SEED_RULE_SET } from "./seed-rules";

/**
 * Rule sets in the table: immutable published versions (V#000000000001...), one editable draft,
 * and the PUBLISHED pointer naming the live version. Publishing writes the new version, moves the
 * pointer (only from the version the publisher saw) and removes the draft (only at the revision
 * the publisher saw) in one transaction.
 *
 * Hot reload: the live rule set is found by reading the pointer on EVERY evaluation (one strongly
 * consistent GetItem, half a read unit) and the version's rules are kept in memory per table,
 * since a version never changes. A publish on any instance is therefore used by every instance
 * on its very next evaluation, with no clock, TTL or invalidation message to get wrong; the cost
 * is one small read per assessment, which already makes a dozen reads for its facts.
 */

export const SEED_VERSION = 1;
export const SYSTEM_PUBLISHER = "system (seed rules)";

const RULES_CHANGED = "The rules changed while publishing (another publish or draft edit); reload and try again";

/** The version last read, per table: versions are immutable, so only the pointer is re-read. */
const cache = new WeakMap<Database, PublishedRuleSet>();

/** A stored item without its table keys, for the strict schemas. */
function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest;
}

const versionItem = (ruleSet: PublishedRuleSet) => ({
  ...ruleSetVersionKey(ruleSet.version),
  entity: "kyc_rule_set",
  ...ruleSet,
});
const pointerItem = (version: number, at: string) => ({
  ...publishedRuleSetKey(),
  entity: "kyc_rule_set_pointer",
  version,
  updated_at: at,
});

async function readPointer(ctx: CoreContext): Promise<number | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: publishedRuleSetKey(), ConsistentRead: true }),
  );
  const version = reply.Item?.version;
  return typeof version === "number" ? version : null;
}

async function readVersion(ctx: CoreContext, version: number): Promise<PublishedRuleSet | null> {
  const cached = cache.get(ctx.db);
  if (cached?.version === version) return cached;
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: ruleSetVersionKey(version), ConsistentRead: true }),
  );
  if (!reply.Item) return null;
  return PublishedRuleSet.parse(withoutKeys(reply.Item));
}

/** The seed as version 1, validated like any admin's rule set. */
async function seedRuleSet(at: string): Promise<PublishedRuleSet> {
  const body = await parseRuleSetBody(SEED_RULE_SET, NEUTRAL_FACTS);
  return { ...body, version: SEED_VERSION, published_at: at, published_by: SYSTEM_PUBLISHER };
}

/**
 * Publishes the seed rule set as version 1 when nothing is published. Conditional on both the
 * version and the pointer being absent: of instances racing here one writes, the rest read it.
 */
async function publishSeed(ctx: CoreContext): Promise<void> {
  const now = ctx.clock().toISOString();
  const seed = await seedRuleSet(now);
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: { TableName: ctx.db.table, Item: versionItem(seed), ConditionExpression: "attribute_not_exists(pk)" },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: pointerItem(SEED_VERSION, now),
              ConditionExpression: "attribute_not_exists(pk)",
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

/** The live rule set (published on first use from the seed), read per evaluation as described above. */
export async function livePublishedRuleSet(ctx: CoreContext): Promise<PublishedRuleSet> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const version = await readPointer(ctx);
    if (version === null) {
      await publishSeed(ctx);
      continue;
    }
    const ruleSet = await readVersion(ctx, version);
    if (!ruleSet) throw new Error(`The published rule set pointer names version ${version}, which is not stored`);
    cache.set(ctx.db, ruleSet);
    return ruleSet;
  }
  throw new Error("No rule set could be published or read");
}

const asVersioned = (ruleSet: PublishedRuleSet): VersionedRuleSet => ({ version: ruleSet.version, body: ruleSet });

async function readDraft(ctx: CoreContext): Promise<RuleSetDraft | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: ruleSetDraftKey(), ConsistentRead: true }),
  );
  return reply.Item ? RuleSetDraft.parse(withoutKeys(reply.Item)) : null;
}

/** The rule sets for the admin (publishing the seed first when nothing is published: that is a use). */
export async function rulesOverview(ctx: CoreContext): Promise<RulesOverview> {
  const live = await livePublishedRuleSet(ctx);
  const [draft, items] = await Promise.all([
    readDraft(ctx),
    queryAll(ctx.db, {
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": RULES_PARTITION, ":prefix": RULE_SET_VERSION_PREFIX },
      ProjectionExpression: "version, #name, #rules, published_at, published_by",
      ExpressionAttributeNames: { "#name": "name", "#rules": "rules" },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  ]);
  const versions = items.map((item) =>
    z
      .object({
        version: z.number(),
        name: z.string(),
        rules: z.array(z.unknown()),
        published_at: z.string(),
        published_by: z.string(),
      })
      .transform((row) => ({ ...row, rules: row.rules.length }))
      .parse(item),
  );
  return { published: live, draft, versions };
}

export async function getRuleSetVersion(ctx: CoreContext, version: number): Promise<PublishedRuleSet> {
  const ruleSet = await readVersion(ctx, version);
  if (!ruleSet) throw notFound(`Rule set version ${version} does not exist`, "rule_set_version_not_found");
  return ruleSet;
}

/** Optional guard: the draft revision the editor started from (a stale save is a 409). */
export const SaveDraftOptions = z.object({ expected_revision: z.number().int().min(0).optional() });

/**
 * Validates and stores the draft (replacing the previous one). Refused rule sets change nothing.
 * With `expectedRevision`, a draft someone else saved in between is not overwritten (409).
 */
export async function saveDraft(
  ctx: CoreContext,
  input: unknown,
  actor: string,
  expectedRevision?: number,
): Promise<RuleSetDraft> {
  const body = await parseRuleSetBody(input, NEUTRAL_FACTS);
  const [current, pointer] = await Promise.all([readDraft(ctx), readPointer(ctx)]);
  const currentRevision = current?.revision ?? 0;
  if (expectedRevision !== undefined && expectedRevision !== currentRevision)
    throw conflict(
      `The draft was changed by ${current?.updated_by ?? "someone"} (revision ${currentRevision}); reload it before saving`,
      "rule_set_draft_changed",
    );
  const draft: RuleSetDraft = {
    ...body,
    revision: currentRevision + 1,
    based_on_version: pointer,
    updated_at: ctx.clock().toISOString(),
    updated_by: actor,
  };
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: { ...ruleSetDraftKey(), entity: "kyc_rule_set_draft", ...draft },
        ...(current
          ? { ConditionExpression: "revision = :revision", ExpressionAttributeValues: { ":revision": currentRevision } }
          : { ConditionExpression: "attribute_not_exists(pk)" }),
      }),
    );
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException"))
      throw conflict(
        "The draft was changed by someone else while saving; reload it and try again",
        "rule_set_draft_changed",
      );
    throw error;
  }
  return draft;
}

/**
 * Publishes the draft as the next version: the version item (never overwritten), the pointer
 * (only from the version this publish saw) and the draft's removal (only at the revision read)
 * commit together, so two publishes give two versions or one 409, never a lost draft.
 */
export async function publishDraft(
  ctx: CoreContext,
  actor: string,
  expectedRevision?: number,
): Promise<PublishedRuleSet> {
  const [draft, pointer] = await Promise.all([readDraft(ctx), readPointer(ctx)]);
  if (!draft) throw conflict("There is no draft to publish: save one with PUT /draft first", "rule_set_no_draft");
  if (expectedRevision !== undefined && expectedRevision !== draft.revision)
    throw conflict(
      `The draft is at revision ${draft.revision} (saved by ${draft.updated_by}), not ${expectedRevision}; review it before publishing`,
      "rule_set_draft_changed",
    );
  const now = ctx.clock().toISOString();
  const { revision, based_on_version: _base, updated_at: _updated, updated_by: _by, ...body } = draft;
  const published: PublishedRuleSet = { ...body, version: (pointer ?? 0) + 1, published_at: now, published_by: actor };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: versionItem(published),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: pointerItem(published.version, now),
              ...(pointer === null
                ? { ConditionExpression: "attribute_not_exists(pk)" }
                : { ConditionExpression: "version = :seen", ExpressionAttributeValues: { ":seen": pointer } }),
            },
          },
          {
            Delete: {
              TableName: ctx.db.table,
              Key: ruleSetDraftKey(),
              ConditionExpression: "revision = :revision",
              ExpressionAttributeValues: { ":revision": revision },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict"))
      throw conflict(RULES_CHANGED, "rule_set_publish_conflict");
    throw error;
  }
  return published;
}

export const DryRunInput = z
  .object({
    submission_id: z.string().min(1, "submission_id is required").max(100, "submission_id is at most 100 characters"),
    /**
     * A rule set body to try (not saved), or a published version's number; neither: the draft, else
     * the live version.
     */
    rules: z.unknown().optional(),
    version: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict()
  .refine((input) => input.rules === undefined || input.version === undefined, "Give rules or version, not both");
export type DryRunInput = z.infer<typeof DryRunInput>;

/**
 * Evaluates a rule set against a stored submission and returns the assessment it WOULD produce.
 * Reads only: nothing is written, not even the seed (the seed is evaluated in memory when nothing
 * is published yet).
 */
export async function dryRun(
  ctx: CoreContext,
  input: DryRunInput,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<DryRunResult> {
  const submission = await requireSubmission(ctx, input.submission_id);
  let chosen: { source: DryRunResult["rule_set"]["source"]; ruleSet: VersionedRuleSet };
  if (input.rules !== undefined) {
    chosen = { source: "body", ruleSet: { version: null, body: await parseRuleSetBody(input.rules, NEUTRAL_FACTS) } };
  } else if (input.version !== undefined) {
    chosen = { source: "version", ruleSet: asVersioned(await getRuleSetVersion(ctx, input.version)) };
  } else {
    const draft = await readDraft(ctx);
    if (draft) chosen = { source: "draft", ruleSet: { version: null, body: draft } };
    else {
      const pointer = await readPointer(ctx);
      chosen = {
        source: "version",
        ruleSet: asVersioned(
          pointer === null ? await seedRuleSet(ctx.clock().toISOString()) : await getRuleSetVersion(ctx, pointer),
        ),
      };
    }
  }
  const facts = await computeFacts(ctx, submission, chosen.ruleSet.body, sources);
  const assessment = await evaluateRuleSet(chosen.ruleSet, facts, ctx.clock().toISOString());
  return {
    rule_set: { source: chosen.source, version: chosen.ruleSet.version, name: chosen.ruleSet.body.name },
    assessment,
    facts,
    current: submission.risk,
  };
}

/** A rule set body as the API accepts it (for OpenAPI). */
export { RuleSetBody };
export const parseVersionParameter = (raw: string): number => {
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1)
    throw badRequest("A rule set version is a whole number from 1", "invalid_version");
  return Number(raw);
};

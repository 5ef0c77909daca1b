import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { findUserById } from "../../auth/users";
import type { CoreContext } from "../../shared/context";
import { findSimilarImages } from "../documents/similar-images";
import { recordedHashes } from "../identity-hash";
import { identityNumberClaimPartition, velocityPartition, type VelocityKind } from "../keys";
import type { KycSubmission } from "../model";
import type { RiskFacts, RuleSetBody } from "./model";
export { NEUTRAL_FACTS } from "./model";
import { nameSimilarity } from "./names";
import { screenName, type WatchlistHit } from "./watchlist";

/**
 * The facts the rules read, gathered from the submission and the table. Every fact is computed
 * for every evaluation (the reads run in parallel, about a dozen small queries), so a dry run can
 * show an admin all of them beside the assessment.
 *
 * What each one is made of, and what it is not:
 * - velocity counts starts from the same origin in the 24 h up to THIS submission's start (its
 *   own included), not up to now: re-assessing after a later document upload, or a dry run on an
 *   old submission, gives the same count as at the start.
 * - name_similarity compares the KYC name with the account's profile name (first + last). The
 *   documents carry no OCR'd name here, and the Didit-style route sends none, so that is the one
 *   pair of names there is to compare.
 * - velocity_device is 0 while the submission does not record the device it started from.
 */

export const VELOCITY_WINDOW_MS = 24 * 3600 * 1000;
/** Below this the KYC name and the profile name are taken to be different people. */
export const NAME_MISMATCH_BELOW = 0.85;

/** Where the cross-user facts come from; tests may swap one out. */
export interface FactSources {
  findSimilarImages: typeof findSimilarImages;
  screenName: (ctx: CoreContext, name: string) => Promise<WatchlistHit[]>;
}
export const DEFAULT_FACT_SOURCES: FactSources = { findSimilarImages, screenName };

/** Starts from one origin in the window ending at `until` (ISO), read as a count only. */
async function countStarts(
  ctx: CoreContext,
  kind: VelocityKind,
  value: string | null | undefined,
  until: string,
): Promise<number> {
  if (!value) return 0;
  const from = new Date(Date.parse(until) - VELOCITY_WINDOW_MS).toISOString();
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":pk": velocityPartition(kind, value), ":from": from, ":to": `${until}#\uffff` },
        Select: "COUNT",
        ExclusiveStartKey: cursor,
      }),
    );
    count += reply.Count ?? 0;
    cursor = reply.LastEvaluatedKey;
  } while (cursor);
  return count;
}

/** Other users holding one of the submission's identity numbers (by keyed hash). */
async function otherNumberHolders(ctx: CoreContext, submission: KycSubmission): Promise<Set<string>> {
  const mine = `USER#${submission.user_id}`;
  const holders = new Set<string>();
  // Under every hash the number was claimed with (one per key version retained then), so numbers
  // recorded before and after a key rotation still meet (identity-hash.ts).
  const claims = Object.entries(submission.identity_numbers).flatMap(([type, record]) =>
    record ? recordedHashes(record).map((hash) => ({ type, hash })) : [],
  );
  await Promise.all(
    claims.map(async ({ type, hash }) => {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": identityNumberClaimPartition(type, hash) },
          ProjectionExpression: "sk",
          // A number claimed by more than 50 accounts is flagged just the same.
          Limit: 50,
        }),
      );
      for (const item of reply.Items ?? []) if (typeof item.sk === "string" && item.sk !== mine) holders.add(item.sk);
    }),
  );
  return holders;
}

async function otherImageOwners(
  ctx: CoreContext,
  submission: KycSubmission,
  sources: FactSources,
): Promise<Set<string>> {
  const hashes = Object.values(submission.documents).flatMap((document) =>
    document?.checks?.phash ? [document.checks.phash] : [],
  );
  const owners = new Set<string>();
  const matches = await Promise.all(hashes.map((phash) => sources.findSimilarImages(ctx, phash, submission.user_id)));
  for (const match of matches.flat()) if (match.userId !== submission.user_id) owners.add(match.userId);
  return owners;
}

async function profileNameSimilarity(ctx: CoreContext, submission: KycSubmission): Promise<number> {
  const user = await findUserById(ctx.db, submission.user_id);
  // No account to compare with (e.g. deleted): nothing contradicts the KYC name.
  if (!user) return 1;
  return nameSimilarity(submission.name, `${user.first_name} ${user.last_name}`);
}

/** The device the submission started from, once the submission records it. */
function deviceOf(submission: KycSubmission): string | null {
  const origin = submission.origin as { device?: unknown };
  return typeof origin.device === "string" ? origin.device : null;
}

export function countryRiskOf(country: string, table: RuleSetBody["country_risk"]): RiskFacts["country_risk"] {
  const code = country.toUpperCase();
  if (table.high.includes(code)) return "high";
  if (table.medium.includes(code)) return "medium";
  return "low";
}

/** Every fact of RISK_FACTS for this submission under this rule set's country table. */
export async function computeFacts(
  ctx: CoreContext,
  submission: KycSubmission,
  ruleSet: RuleSetBody,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<RiskFacts> {
  const documents = Object.values(submission.documents).filter((document) => document !== undefined);
  const checked = documents.flatMap((document) => (document.checks ? [document.checks] : []));
  const [numberHolders, imageOwners, ipStarts, domainStarts, deviceStarts, similarity, hits] = await Promise.all([
    otherNumberHolders(ctx, submission),
    otherImageOwners(ctx, submission, sources),
    countStarts(ctx, "ip", submission.origin.ip, submission.submitted_at),
    countStarts(ctx, "email_domain", submission.origin.email_domain, submission.submitted_at),
    countStarts(ctx, "device", deviceOf(submission), submission.submitted_at),
    profileNameSimilarity(ctx, submission),
    sources.screenName(ctx, submission.name),
  ]);
  const best = hits[0];
  const rejected = documents.filter((document) => document.status === "rejected").length;
  return {
    country: submission.country.toUpperCase(),
    country_risk: countryRiskOf(submission.country, ruleSet.country_risk),
    amount: submission.amount,
    identity_numbers_verified: Object.keys(submission.identity_numbers).length,
    document_count: documents.length,
    verified_document_count: documents.filter((document) => document.status === "verified").length,
    any_document_rejected: rejected > 0,
    rejected_document_count: rejected,
    min_sharpness: checked.length ? Math.min(...checked.map((check) => check.sharpness)) : null,
    max_glare: checked.length ? Math.max(...checked.map((check) => check.glare)) : null,
    duplicate_identity_number: numberHolders.size > 0,
    duplicate_identity_number_users: numberHolders.size,
    duplicate_image: imageOwners.size > 0,
    duplicate_image_users: imageOwners.size,
    email_domain: submission.origin.email_domain.toLowerCase(),
    velocity_ip_24h: ipStarts,
    velocity_email_domain_24h: domainStarts,
    velocity_device_24h: deviceStarts,
    name_similarity: similarity,
    name_mismatch: similarity < NAME_MISMATCH_BELOW,
    watchlist_hit: best !== undefined,
    watchlist_score: best?.score ?? 0,
    watchlist_list: best?.entry.list ?? "",
  };
}

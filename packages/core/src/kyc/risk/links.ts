import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { recordedHashes } from "../identity-hash";
import { identityNumberClaimPartition } from "../keys";
import { riskLevel, type KycSubmission, type ReviewAlert, type RiskAssessment } from "../model";
import { shareLabel, type LinkedSubmission, type LinkedSubmissions, type LinkShare } from "../review-model";
import {
  changeSubmission,
  getSubmission,
  SYSTEM_ACTOR,
  type HistoryInput,
  type SubmissionChange,
} from "../submissions";
import { assessSubmission } from "./assess";
import { DEFAULT_FACT_SOURCES, type FactSources } from "./facts";

/**
 * Linked submissions: another user's submission that holds one of this submission's identity
 * numbers (the claim items, by keyed hash) or a near-duplicate of one of its pictures (the pHash
 * band items). Links are found from those index items, so they read the same from both sides:
 * the earlier submission finds the later one and the later one finds the earlier.
 *
 * After every applicant step (workflow.ts hands rescoreLinkedSubmissions to the step's commit),
 * the linked submissions are scored again with the live rules, and a changed assessment is stored
 * with a `rescored` audit entry naming its cause. A re-score that changes nothing writes nothing,
 * so repeating it (a retried step, a second link to the same submission) is harmless. A verified
 * submission whose risk rises keeps its status but gets a review alert (ReviewAlert in model.ts)
 * and high priority: its holder may be the victim of the later applicant, so it is not reopened
 * (which would take their verification away) until a reviewer decides.
 *
 * Bounds, per applicant step: at most LINK_LIMITS.claimsPerNumber claims are read per number
 * hash and LINK_LIMITS.imagesPerDocument similar pictures per document; of the submissions found,
 * at most LINK_LIMITS.rescorePerStep are re-scored, the earliest claims first, two at a time.
 * The earliest holder is the one that can lack the flag (every later holder saw the earlier ones
 * when it was scored), so the cap drops only recounts. Anything not re-scored here is still
 * checked against the live rules whenever a reviewer opens it or approves it (review-decisions).
 */

export const LINK_LIMITS = {
  claimsPerNumber: 100,
  imagesPerDocument: 100,
  rescorePerStep: 10,
  rescoreConcurrency: 2,
  /** Linked submissions listed in the reviewer's detail. */
  shown: 25,
} as const;

interface FoundLink {
  submissionId: string;
  userId: string;
  shares: LinkShare[];
  /** When the link's index item was written, for "earliest first" (pictures: unknown, last). */
  claimedAt: string | null;
}

interface FoundLinks {
  links: FoundLink[];
  /** A read stopped at its limit: more may be linked than were found. */
  truncated: boolean;
}

const ClaimItem = z.object({ user_id: z.string(), submission_id: z.string(), claimed_at: z.string().optional() });

const sameShare = (a: LinkShare, b: LinkShare) => JSON.stringify(a) === JSON.stringify(b);

/** Other users' submissions sharing a number or a picture with `submission`, earliest claims first. */
export async function findLinks(
  ctx: CoreContext,
  submission: KycSubmission,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<FoundLinks> {
  const found = new Map<string, FoundLink>();
  let truncated = false;
  const add = (submissionId: string, userId: string, share: LinkShare, claimedAt: string | null) => {
    if (userId === submission.user_id || submissionId === submission.id) return;
    const link = found.get(submissionId) ?? { submissionId, userId, shares: [], claimedAt: null };
    if (!link.shares.some((known) => sameShare(known, share))) link.shares.push(share);
    if (claimedAt && (!link.claimedAt || claimedAt < link.claimedAt)) link.claimedAt = claimedAt;
    found.set(submissionId, link);
  };

  // A number is claimed under every key version retained when it was recorded (identity-hash.ts).
  const claims = Object.entries(submission.identity_numbers).flatMap(([type, record]) =>
    record ? recordedHashes(record).map((hash) => ({ type, hash })) : [],
  );
  const images = Object.values(submission.documents).flatMap((document) =>
    document?.checks?.phash ? [{ type: document.type, phash: document.checks.phash }] : [],
  );
  await Promise.all([
    ...claims.map(async ({ type, hash }) => {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": identityNumberClaimPartition(type, hash) },
          ProjectionExpression: "user_id, submission_id, claimed_at",
          Limit: LINK_LIMITS.claimsPerNumber,
        }),
      );
      if (reply.LastEvaluatedKey) truncated = true;
      for (const raw of reply.Items ?? []) {
        const item = ClaimItem.safeParse(raw);
        if (item.success)
          add(
            item.data.submission_id,
            item.data.user_id,
            { kind: "identity_number", type },
            item.data.claimed_at ?? null,
          );
      }
    }),
    ...images.map(async ({ type, phash }) => {
      const matches = await sources.findSimilarImages(ctx, phash, submission.user_id);
      if (matches.length > LINK_LIMITS.imagesPerDocument) truncated = true;
      for (const match of matches.slice(0, LINK_LIMITS.imagesPerDocument)) {
        add(
          match.submissionId,
          match.userId,
          {
            kind: "document_image",
            document_type: type,
            other_document_type: match.documentType,
            distance: match.distance,
          },
          null,
        );
      }
    }),
  ]);
  // The reads finish in any order: numbers first, then pictures, each in a fixed order.
  const shareOrder = (share: LinkShare) =>
    share.kind === "identity_number" ? `0#${share.type}` : `1#${share.document_type}#${share.other_document_type}`;
  for (const link of found.values()) link.shares.sort((a, b) => shareOrder(a).localeCompare(shareOrder(b)));
  const links = [...found.values()].sort(
    (a, b) =>
      (a.claimedAt ?? "\uffff").localeCompare(b.claimedAt ?? "\uffff") || a.submissionId.localeCompare(b.submissionId),
  );
  return { links, truncated };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The same assessment in what a reviewer reads: score, level, verdict, priority, flags and reasons. */
export function sameAssessment(a: RiskAssessment, b: RiskAssessment): boolean {
  const content = (assessment: RiskAssessment) =>
    JSON.stringify([
      assessment.risk_score,
      assessment.level,
      assessment.verdict,
      assessment.priority,
      assessment.flags,
      assessment.reasons,
    ]);
  return content(a) === content(b);
}

const VERDICT_RANK = { approve: 0, review: 1, reject: 2 } as const;

/** The new assessment is worse: a higher score, a flag not raised before, or a harsher verdict. */
export function riskRose(previous: RiskAssessment | null, next: RiskAssessment): boolean {
  if (!previous) return next.flags.length > 0 || next.verdict !== "approve";
  return (
    next.risk_score > previous.risk_score ||
    next.flags.some((flag) => !previous.flags.some((old) => old.code === flag.code)) ||
    VERDICT_RANK[next.verdict] > VERDICT_RANK[previous.verdict]
  );
}

const describeRisk = (assessment: RiskAssessment | null) =>
  assessment ? `${assessment.risk_score} (${assessment.level})` : "none";

/** The re-score of one linked submission, caused by `cause` sharing `shares` with it; null when nothing changes. */
async function rescoreChange(
  ctx: CoreContext,
  current: KycSubmission,
  cause: KycSubmission,
  shares: LinkShare[],
): Promise<SubmissionChange | null> {
  const assessment = await assessSubmission(ctx, current);
  const previous = current.risk;
  if (previous && sameAssessment(previous, assessment)) return null;
  // The shares were found from the cause's side; the audit of `current` reads them from its own.
  const what = shares
    .map((share) =>
      shareLabel(
        share.kind === "document_image"
          ? { ...share, document_type: share.other_document_type, other_document_type: share.document_type }
          : share,
      ),
    )
    .join(" and ");
  const next: KycSubmission = {
    ...current,
    risk: assessment,
    risk_score: assessment.risk_score,
    priority: assessment.priority,
  };
  const entries: HistoryInput[] = [
    {
      actor: SYSTEM_ACTOR,
      action: "rescored",
      from: null,
      to: null,
      note: `Re-scored because submission ${cause.id} (${cause.name}) shares ${what}: risk ${describeRisk(previous)} -> ${describeRisk(assessment)}, rule set v${assessment.rule_set_version}`,
      // Audit only: the applicant's stream never carries risk signals.
      event: null,
    },
  ];
  if (current.status === "verified" && riskRose(previous, assessment)) {
    const alert: ReviewAlert = current.review_alert ?? {
      reason: `Approved earlier; now linked to submission ${cause.id} (${cause.name}), which shares ${what}. Risk ${describeRisk(previous)} -> ${describeRisk(assessment)}.`,
      raised_at: ctx.clock().toISOString(),
      cause_submission_id: cause.id,
    };
    next.review_alert = alert;
    next.priority = "high";
    if (!current.review_alert)
      entries.push({
        actor: SYSTEM_ACTOR,
        action: "review_alert_raised",
        from: null,
        to: null,
        note: alert.reason,
        event: null,
      });
  } else if (current.review_alert) {
    // An open alert keeps the submission in front of a reviewer until one deals with it.
    next.priority = "high";
  }
  return { next, entries };
}

/**
 * Re-scores the submissions linked to `trigger` (just committed), within the bounds above. Each
 * is its own change under its own version; one that fails is logged and the others go on.
 */
export async function rescoreLinkedSubmissions(
  ctx: CoreContext,
  trigger: KycSubmission,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<void> {
  if (
    Object.keys(trigger.identity_numbers).length === 0 &&
    !Object.values(trigger.documents).some((document) => document?.checks?.phash)
  )
    return;
  const { links } = await findLinks(ctx, trigger, sources);
  await eachLimited(links.slice(0, LINK_LIMITS.rescorePerStep), LINK_LIMITS.rescoreConcurrency, async (link) => {
    try {
      await changeSubmission(ctx, link.submissionId, (current) => rescoreChange(ctx, current, trigger, link.shares));
    } catch (error) {
      ctx.logger.warn("re-scoring a linked KYC submission failed", {
        error,
        submission_id: link.submissionId,
        cause_submission_id: trigger.id,
      });
    }
  });
}

/** The reviewer's view of the links: the first LINK_LIMITS.shown, each with its status and risk, oldest first. */
export async function linkedSubmissions(
  ctx: CoreContext,
  submission: KycSubmission,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<LinkedSubmissions> {
  const { links, truncated } = await findLinks(ctx, submission, sources);
  const shown = links.slice(0, LINK_LIMITS.shown);
  const read = await Promise.all(
    shown.map(async (link) => ({ link, other: await getSubmission(ctx, link.submissionId) })),
  );
  const rows: LinkedSubmission[] = read.flatMap(({ link, other }) =>
    other
      ? [
          {
            id: other.id,
            user_id: other.user_id,
            name: other.name,
            status: other.status,
            risk_score: other.risk_score,
            risk_level: riskLevel(other.risk_score),
            submitted_at: other.submitted_at,
            relation:
              other.submitted_at < submission.submitted_at ||
              (other.submitted_at === submission.submitted_at && other.id < submission.id)
                ? "earlier"
                : "later",
            alert_open: other.review_alert !== null,
            shared: link.shares,
          } satisfies LinkedSubmission,
        ]
      : [],
  );
  rows.sort((a, b) => a.submitted_at.localeCompare(b.submitted_at) || a.id.localeCompare(b.id));
  return { submissions: rows, more: truncated || links.length > shown.length };
}

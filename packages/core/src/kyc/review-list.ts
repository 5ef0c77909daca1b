import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import type { CursorBinding } from "../shared/cursor";
import { queryPage } from "../shared/pagination";
import { parseWith } from "../shared/validation";
import { SUBMISSIONS_PARTITION } from "./keys";
import { DOCUMENT_TYPES, riskLevel, type KycSubmission } from "./model";
import {
  REVIEW_PERIOD_MS,
  REVIEW_TOTAL_MAX,
  ReviewListQuery,
  type ReviewFilters,
  type ReviewPage,
  type ReviewRow,
} from "./review-model";
import { parseSubmission } from "./submissions";

/**
 * The reviewer's list (GET /dashboard): every submission, newest first, over the one index
 * partition that holds them all (keys.ts submissionsIndex: gsi1sk = submitted_at#id). The period is
 * a key range; status, country and priority are a FilterExpression; the case-insensitive search
 * (name, e-mail, ids) is matched in code, because DynamoDB's contains() is case-sensitive and the
 * stored item has no lower-cased copy of those fields (one would let the query filter them).
 * queryPage keeps paging exact either way.
 */

/**
 * The list row: the KYC submission fields of docs/product/kyc.md#data, plus the risk level,
 * progress and whether info was requested.
 */
export function reviewRow(submission: KycSubmission): ReviewRow {
  return {
    id: submission.id,
    user_id: submission.user_id,
    name: submission.name,
    email: submission.email,
    phone: submission.phone,
    location: submission.location,
    country: submission.country,
    status: submission.status,
    risk_score: submission.risk_score,
    risk_level: riskLevel(submission.risk_score),
    amount: submission.amount,
    priority: submission.priority,
    progress: submission.progress,
    submitted_at: submission.submitted_at,
    verified_at: submission.verified_at,
    decided_at: submission.decided_at,
    notes: submission.notes,
    info_requested: submission.info_request !== null,
    alert_open: submission.review_alert !== null,
    documents: DOCUMENT_TYPES.flatMap((type) => {
      const document = submission.documents[type];
      return document ? [{ type, status: document.status, uploaded_at: document.uploaded_at }] : [];
    }),
  };
}

const KEY_NAMES = ["pk", "sk", "gsi1pk", "gsi1sk"];

/** Where a period starts, as the index's sort key compares it (submitted_at#id >= the instant). */
export const periodStart = (ctx: CoreContext, period: ReviewFilters["period"]): Date | undefined =>
  period ? new Date(ctx.clock().getTime() - REVIEW_PERIOD_MS[period]) : undefined;

type SubmissionsQuery = Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit" | "ScanIndexForward">;

/**
 * The Query of the submissions index: submitted since `since` as a key range, the exact filters as
 * a FilterExpression.
 */
export function submissionsQuery(filters: Pick<ReviewFilters, "status" | "country" | "priority">, since?: Date) {
  const values: Record<string, string> = { ":pk": SUBMISSIONS_PARTITION };
  const names: Record<string, string> = {};
  const conditions: string[] = [];
  let range = "";
  if (since) {
    values[":since"] = since.toISOString();
    range = " AND gsi1sk >= :since";
  }
  for (const field of ["status", "country", "priority"] as const) {
    const wanted = filters[field];
    if (wanted === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = wanted;
    conditions.push(`#${field} = :${field}`);
  }
  const input: SubmissionsQuery = {
    IndexName: "gsi1",
    KeyConditionExpression: `gsi1pk = :pk${range}`,
    ExpressionAttributeValues: values,
    ...(conditions.length > 0 ? { FilterExpression: conditions.join(" AND "), ExpressionAttributeNames: names } : {}),
  };
  return input;
}

type SubmissionSearch = (submission: Pick<KycSubmission, "id" | "user_id" | "name" | "email">) => boolean;

/** The case-insensitive search over name, e-mail, submission id and user id (search is lower-cased by the schema). */
export function matchesSearch(search: string | undefined): SubmissionSearch {
  if (!search) return () => true;
  return (submission) =>
    [submission.name, submission.email, submission.id, submission.user_id].some((text) =>
      text.toLowerCase().includes(search),
    );
}

/**
 * Reads the index for a query, newest first, up to `max` accepted items; `complete` says whether
 * every match was read. Used where all matches are needed (totals, stats, export).
 */
export async function readSubmissions<T>(
  ctx: CoreContext,
  input: SubmissionsQuery,
  accept: (item: Record<string, unknown>) => T | null,
  max: number,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new QueryCommand({ ...input, TableName: ctx.db.table, ScanIndexForward: false, ExclusiveStartKey: start }),
    );
    for (const raw of reply.Items ?? []) {
      const accepted = accept(raw);
      if (accepted === null) continue;
      if (items.length === max) return { items, complete: false };
      items.push(accepted);
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  return { items, complete: true };
}

const SEARCHED_FIELDS = ["id", "user_id", "name", "email"] as const;

/** How many submissions a query matches (up to REVIEW_TOTAL_MAX), reading only the fields the search needs. */
async function countMatches(
  ctx: CoreContext,
  input: SubmissionsQuery,
  search: SubmissionSearch,
): Promise<{ total: number; complete: boolean }> {
  const projected = {
    ...input,
    ProjectionExpression: SEARCHED_FIELDS.map((field) => `#${field}`).join(", "),
    ExpressionAttributeNames: {
      ...input.ExpressionAttributeNames,
      ...Object.fromEntries(SEARCHED_FIELDS.map((field) => [`#${field}`, field])),
    },
  };
  const searched = (item: Record<string, unknown>) =>
    Object.fromEntries(SEARCHED_FIELDS.map((field) => [field, String(item[field] ?? "")])) as Record<
      (typeof SEARCHED_FIELDS)[number],
      string
    >;
  const found = await readSubmissions(
    ctx,
    projected,
    (item) => (search(searched(item)) ? true : null),
    REVIEW_TOTAL_MAX,
  );
  return { total: found.items.length, complete: found.complete };
}

export const reviewCursorBinding = (ctx: CoreContext, scope: Record<string, unknown>): CursorBinding => ({
  secret: ctx.config.CURSOR_KEYS,
  scope,
});

/** A page of the reviewer's list; the cursor is signed and bound to the filters. */
export async function listSubmissions(ctx: CoreContext, query: unknown): Promise<ReviewPage> {
  const { limit, cursor, ...filters } = parseWith(ReviewListQuery, query);
  const search = matchesSearch(filters.search);
  // The period's start moves with the clock, so the cursor binds the period's name, not the instant.
  const binding = reviewCursorBinding(ctx, { route: "kyc/dashboard", ...filters });
  const input = submissionsQuery(filters, periodStart(ctx, filters.period));
  const [page, count] = await Promise.all([
    queryPage(
      ctx.db,
      input,
      KEY_NAMES,
      { name: "gsi1pk", value: SUBMISSIONS_PARTITION },
      binding,
      { limit, offset: 0, cursor },
      (item) => {
        const submission = parseSubmission(item);
        return search(submission) ? reviewRow(submission) : null;
      },
    ),
    countMatches(ctx, input, search),
  ]);
  return {
    data: page.items,
    next_cursor: page.next_cursor,
    has_more: page.has_more,
    total: count.total,
    total_capped: !count.complete,
  };
}

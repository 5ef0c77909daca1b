import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { queryAll } from "../shared/dynamo";
import { notFound } from "../shared/errors";
import { toDecimalString, type Currency } from "../money/model";
import { getRail, listRails } from "../rails/store";
import { loadDayExpectations, railHadSettlements } from "./expectations";
import { missingFileBreakId, positionPartition, railDayKey, SUSPENSE_PARTITION } from "./keys";
import {
  INCOMING_PREFIX,
  MISSING_FILE_LOG_MESSAGE,
  MISSING_FILE_METRIC,
  REJECTED_FILE_LOG_MESSAGE,
  REJECTED_FILE_METRIC,
  RECON_MESSAGES,
  SETTLEMENT_KEY_PATTERN,
  UPLOAD_MAX_BYTES,
  UPLOAD_URL_SECONDS,
  settlementFileKey,
  type BreakClass,
  type BreakList,
  type BreakStatus,
  type ClearingPosition,
  type FileSource,
  type FileStatus,
  type NightlyReply,
  type PositionsReply,
  type ReconciliationBreak,
  type ReopenBreakInput,
  type ResolveBreakInput,
  type SettlementFile,
  type SettlementFileList,
  type UploadGrant,
  type UploadRequest,
} from "./model";
import { reconcileObject as reconcileStoredObject, type ReconcileStats } from "./reconcile";
import { reopenBreak as reopenStoredBreak, resolveBreak as resolveStoredBreak } from "./resolution";
import { resultDownloadUrl } from "./results";
import {
  breakReply,
  loadBreak,
  loadFile,
  newBreak,
  putNewBreak,
  queryBreaks,
  queryFiles,
  type StoredFile,
} from "./store";
import { parseBreakId } from "./keys";

/**
 * The reconciliation's entry points, for the routes, the S3 and schedule handlers (cloud Lambdas
 * and the embedded stack) and the CLI (docs/money-operations.md#reconciliation).
 */

/** Who acts on a break or asks for an upload: an administrator. */
export interface ReconActor {
  userId: string;
  email: string;
}

/** An S3 ObjectCreated record, as S3 notifications and the S3 emulator deliver it. */
export interface SettlementObjectRecord {
  eventName: string;
  eventTime?: string;
  s3: { bucket: { name: string }; object: { key: string; versionId?: string | null } };
}

export type ReconcileOutcome =
  | { outcome: "reconciled"; file: SettlementFile; stats: ReconcileStats }
  | { outcome: "already_reconciled"; fileId: string }
  | { outcome: "ignored"; reason: string };

export interface FileFilters {
  railId?: string | undefined;
  status?: FileStatus | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface BreakFilters {
  class?: BreakClass | undefined;
  status?: BreakStatus | undefined;
  railId?: string | undefined;
  fileId?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

async function fileReply(ctx: CoreContext, stored: StoredFile): Promise<SettlementFile> {
  const { result_key: resultKey, ...file } = stored;
  return { ...file, downloadUrl: resultKey ? await resultDownloadUrl(ctx, resultKey) : null };
}

/** Reconciles the object at `key` (one version): idempotent per object version and per content. */
export async function reconcileObject(
  ctx: CoreContext,
  object: { key: string; versionId?: string | null | undefined; source: FileSource },
): Promise<ReconcileOutcome> {
  const outcome = await reconcileStoredObject(ctx, object);
  if (outcome.outcome === "ignored")
    ctx.logger.warn("settlement object not reconciled", { key: object.key, reason: outcome.reason });
  if (outcome.outcome !== "reconciled") return outcome;
  if (outcome.file.rejection !== null)
    ctx.logger.error(REJECTED_FILE_LOG_MESSAGE, {
      metric: REJECTED_FILE_METRIC,
      file_id: outcome.file.id,
      key: object.key,
      rejection: outcome.file.rejection,
    });
  else
    ctx.logger.info("settlement file reconciled", {
      file_id: outcome.file.id,
      status: outcome.file.status,
      variance: outcome.file.variance,
      lines: outcome.file.lines,
      breaks: outcome.file.breakCounts,
    });
  return { outcome: "reconciled", file: await fileReply(ctx, outcome.file), stats: outcome.stats };
}

/** S3 URL-encodes keys in notifications (a space arrives as "+"). */
function objectKeyOf(record: SettlementObjectRecord): string {
  try {
    return decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
  } catch {
    return record.s3.object.key;
  }
}

/**
 * Handles S3 ObjectCreated records of the settlements bucket: every record under the incoming
 * prefix is reconciled (an upload through the console's presigned POST is `upload`, any other put
 * `s3_event`); others are ignored. Throws the first failure after trying every record, so the
 * delivery is retried.
 */
export async function processSettlementObjectRecords(
  ctx: CoreContext,
  records: readonly SettlementObjectRecord[],
): Promise<ReconcileOutcome[]> {
  const results: ReconcileOutcome[] = [];
  const failures: unknown[] = [];
  for (const record of records) {
    if (!record.eventName.startsWith("ObjectCreated")) continue;
    const key = objectKeyOf(record);
    if (!key.startsWith(INCOMING_PREFIX)) continue;
    try {
      results.push(
        await reconcileObject(ctx, {
          key,
          versionId: record.s3.object.versionId ?? null,
          source: record.eventName === "ObjectCreated:Post" ? "upload" : "s3_event",
        }),
      );
    } catch (error) {
      ctx.logger.error("settlement reconciliation failed", { error, key });
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return results;
}

const previousDay = (now: Date) => new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);

/**
 * The nightly check: reconciles files of `date` (default: the day before `now`) not reconciled
 * yet, and raises one missing_file break per rail that had settled attempts that day and no file.
 */
export async function reconcileNight(
  ctx: CoreContext,
  now: Date,
  date: string = previousDay(now),
): Promise<NightlyReply> {
  const client = await ctx.storage.client();
  const reconciled: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: ctx.storage.settlementsBucket,
        Prefix: INCOMING_PREFIX,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) {
      const key = object.Key ?? "";
      const match = SETTLEMENT_KEY_PATTERN.exec(key);
      if (!match || match[2] !== date) continue;
      const outcome = await reconcileObject(ctx, { key, source: "nightly" });
      if (outcome.outcome === "reconciled" && outcome.file.rejection === null) reconciled.push(outcome.file.id);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  const missingFiles: NightlyReply["missingFiles"] = [];
  const at = ctx.clock().toISOString();
  for (const rail of await listRails(ctx)) {
    const day = await ctx.db.doc.send(
      new GetCommand({ TableName: ctx.db.table, Key: railDayKey(rail.id, date), ConsistentRead: true }),
    );
    if (day.Item || !(await railHadSettlements(ctx, rail.id, date))) continue;
    const breakId = missingFileBreakId(rail.id, date);
    await putNewBreak(
      ctx,
      newBreak(
        { id: breakId, fileId: null, railId: rail.id, rail: rail.name, date, suspenseJournalId: null, at },
        {
          class: "missing_file",
          line: null,
          reference: "",
          type: null,
          currency: null,
          fileAmountMinor: null,
          ledgerAmountMinor: null,
          fileFeeMinor: null,
          ledgerFeeMinor: null,
          paymentId: null,
          suspenseMinor: 0,
          reason: `no settlement file under ${settlementFileKey(rail.id, date)}`,
        },
      ),
    );
    ctx.logger.warn(MISSING_FILE_LOG_MESSAGE, {
      metric: MISSING_FILE_METRIC,
      rail_id: rail.id,
      date,
      break_id: breakId,
    });
    missingFiles.push({ railId: rail.id, date, breakId });
  }
  return { date, reconciled, missingFiles };
}

export async function listSettlementFiles(ctx: CoreContext, filters: FileFilters): Promise<SettlementFileList> {
  const page = await queryFiles(ctx, filters);
  return { files: await Promise.all(page.files.map((file) => fileReply(ctx, file))), nextCursor: page.nextCursor };
}

export async function getSettlementFile(ctx: CoreContext, id: string): Promise<SettlementFile> {
  const stored = await loadFile(ctx, id);
  if (!stored) throw notFound(RECON_MESSAGES.fileNotFound, "file_not_found");
  return fileReply(ctx, stored);
}

export async function listBreaks(ctx: CoreContext, filters: BreakFilters): Promise<BreakList> {
  const page = await queryBreaks(ctx, filters);
  return { breaks: page.breaks.map(breakReply), nextCursor: page.nextCursor };
}

export async function getBreak(ctx: CoreContext, id: string): Promise<ReconciliationBreak> {
  const parsed = parseBreakId(id);
  const stored = parsed ? await loadBreak(ctx, id, parsed.date) : null;
  if (!stored) throw notFound(RECON_MESSAGES.breakNotFound, "break_not_found");
  return breakReply(stored);
}

export async function resolveBreak(
  ctx: CoreContext,
  actor: ReconActor,
  id: string,
  input: ResolveBreakInput,
  idempotencyKey?: string,
): Promise<ReconciliationBreak> {
  return breakReply(await resolveStoredBreak(ctx, actor, id, input, idempotencyKey));
}

export async function reopenBreak(
  ctx: CoreContext,
  actor: ReconActor,
  id: string,
  input: ReopenBreakInput,
  idempotencyKey?: string,
): Promise<ReconciliationBreak> {
  return breakReply(await reopenStoredBreak(ctx, actor, id, input, idempotencyKey));
}

/**
 * A presigned POST for an admin's upload of a settlement file: the key is the rail-day's under the
 * incoming prefix with a unique suffix, the content type must be text/csv and the size at most
 * UPLOAD_MAX_BYTES and the content's SHA-256 the one declared (S3 enforces all three: they are
 * conditions of the signed policy; the checksum is what Object Lock requires). The object's
 * ObjectCreated:Post event then reconciles it (source `upload`).
 */
export async function createSettlementUpload(
  ctx: CoreContext,
  actor: ReconActor,
  input: UploadRequest,
): Promise<UploadGrant> {
  await getRail(ctx, input.railId);
  const issuedAt = ctx.clock();
  const suffix = `.upload-${issuedAt.getTime().toString(36)}-${actor.userId.replace(/[^A-Za-z0-9]/g, "").slice(0, 12)}`;
  const key = settlementFileKey(input.railId, input.date, suffix);
  const { url, fields } = await createPresignedPost(await ctx.storage.client(), {
    Bucket: ctx.storage.settlementsBucket,
    Key: key,
    Conditions: [
      ["eq", "$key", key],
      ["content-length-range", 1, Math.min(UPLOAD_MAX_BYTES, input.size)],
      ["eq", "$Content-Type", "text/csv"],
      ["eq", "$x-amz-checksum-algorithm", "SHA256"],
      ["eq", "$x-amz-checksum-sha256", input.sha256],
    ],
    Fields: { "Content-Type": "text/csv", "x-amz-checksum-algorithm": "SHA256", "x-amz-checksum-sha256": input.sha256 },
    Expires: UPLOAD_URL_SECONDS,
  });
  return {
    url,
    fields,
    key,
    expiresAt: new Date(issuedAt.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
    maxBytes: Math.min(UPLOAD_MAX_BYTES, input.size),
  };
}

/**
 * Clearing positions of a day per rail and currency: expected (the day's expectations) − settled
 * (matched in files) − resolved (matched or written off by hand); netsToZero when nothing is open.
 * And the open suspense per currency.
 */
export async function clearingPositions(ctx: CoreContext, date: string): Promise<PositionsReply> {
  const rails = await listRails(ctx);
  const counters = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": positionPartition(date) },
    ConsistentRead: true,
  });
  const positions: ClearingPosition[] = [];
  for (const rail of rails) {
    const { expectations } = await loadDayExpectations(ctx, rail.id, date);
    const expected = new Map<Currency, number>();
    for (const expectation of expectations.values())
      expected.set(expectation.currency, (expected.get(expectation.currency) ?? 0) + expectation.amountMinor);
    const currencies = new Set<Currency>(expected.keys());
    for (const item of counters) if (item.rail_id === rail.id) currencies.add(item.currency as Currency);
    for (const currency of [...currencies].sort()) {
      const counter = counters.find((item) => item.rail_id === rail.id && item.currency === currency);
      const expectedMinor = expected.get(currency) ?? 0;
      const settled = Number(counter?.settled_minor ?? 0);
      const resolved = Number(counter?.resolved_minor ?? 0);
      const open = expectedMinor - settled - resolved;
      const money = (minor: number) => toDecimalString(minor, currency);
      positions.push({
        railId: rail.id,
        rail: rail.name,
        date,
        currency,
        expected: money(expectedMinor),
        settled: money(settled),
        resolved: money(resolved),
        open: money(open),
        netsToZero: open === 0,
      });
    }
  }
  const suspenseItems = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": SUSPENSE_PARTITION },
    ConsistentRead: true,
  });
  const suspense = suspenseItems.map((item) => ({
    currency: item.sk as Currency,
    open: toDecimalString(Number(item.open_minor ?? 0), item.sk as Currency),
  }));
  return { date, positions, suspense };
}

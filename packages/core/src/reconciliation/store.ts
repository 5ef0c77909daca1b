import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { toDecimalString, type Currency } from "../money/model";
import { queryPage } from "../shared/pagination";
import type { CursorBinding } from "../shared/cursor";
import { BREAKS_PARTITION, breakKey, fileBreaksPrefix, FILES_PARTITION, fileKey, parseFileId } from "./keys";
import type { LineOutcome } from "./matcher";
import {
  BREAK_CLASS_LABELS,
  DEFAULT_PAGE_SIZE,
  type BreakClass,
  type BreakHistoryEntry,
  type BreakResolution,
  type BreakStatus,
  type FileStatus,
  type ReconciliationBreak,
  type SettlementFile,
} from "./model";

/**
 * Break and file-summary items (docs/money-operations.md#reconciliation): the only items a
 * reconciliation stores besides its journals and counters. Both carry `committed_at`, for the ops feed.
 */

export interface StoredBreak {
  id: string;
  file_id: string | null;
  rail_id: string;
  rail: string;
  date: string;
  class: BreakClass;
  status: BreakStatus;
  reference: string | null;
  line: number | null;
  type: string | null;
  currency: Currency | null;
  file_amount_minor: number | null;
  ledger_amount_minor: number | null;
  file_fee_minor: number | null;
  ledger_fee_minor: number | null;
  suspense_minor: number;
  payment_id: string | null;
  suspense_journal_id: string | null;
  reason: string | null;
  resolution: (BreakResolution & { clearing_minor: number; also_resolved: string | null }) | null;
  history: BreakHistoryEntry[];
  version: number;
  created_at: string;
  committed_at: string;
}

export function breakItem(stored: StoredBreak) {
  return { ...breakKey(stored.id, stored.date), entity: "recon_break", ...stored };
}

export function newBreak(
  input: {
    id: string;
    fileId: string | null;
    railId: string;
    rail: string;
    date: string;
    suspenseJournalId: string | null;
    at: string;
  },
  outcome: Pick<
    LineOutcome,
    | "line"
    | "reference"
    | "type"
    | "currency"
    | "fileAmountMinor"
    | "ledgerAmountMinor"
    | "fileFeeMinor"
    | "ledgerFeeMinor"
    | "paymentId"
    | "suspenseMinor"
    | "reason"
  > & { class: BreakClass },
): StoredBreak {
  return {
    id: input.id,
    file_id: input.fileId,
    rail_id: input.railId,
    rail: input.rail,
    date: input.date,
    class: outcome.class,
    status: "open",
    reference: outcome.reference || null,
    line: outcome.line,
    type: outcome.type,
    currency: outcome.currency,
    file_amount_minor: outcome.fileAmountMinor,
    ledger_amount_minor: outcome.ledgerAmountMinor,
    file_fee_minor: outcome.fileFeeMinor,
    ledger_fee_minor: outcome.ledgerFeeMinor,
    suspense_minor: outcome.suspenseMinor,
    payment_id: outcome.paymentId,
    suspense_journal_id: outcome.suspenseMinor !== 0 ? input.suspenseJournalId : null,
    reason: outcome.reason,
    resolution: null,
    history: [{ action: "raised", by: "system", at: input.at, note: outcome.reason, journalId: null, version: 1 }],
    version: 1,
    created_at: input.at,
    committed_at: input.at,
  };
}

/** Puts a break unless it exists (a re-run of the same file leaves what is there, resolved or not). */
export async function putNewBreak(ctx: CoreContext, stored: StoredBreak): Promise<boolean> {
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: breakItem(stored),
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException")) return false;
    throw error;
  }
}

export function breakReply(stored: StoredBreak): ReconciliationBreak {
  const money = (minor: number | null) =>
    minor === null || stored.currency === null ? null : toDecimalString(minor, stored.currency);
  const difference =
    stored.class === "fee_mismatch"
      ? (stored.file_fee_minor ?? 0) - (stored.ledger_fee_minor ?? 0)
      : stored.file_amount_minor === null && stored.ledger_amount_minor === null
        ? null
        : (stored.file_amount_minor ?? 0) - (stored.ledger_amount_minor ?? 0);
  const resolution = stored.resolution
    ? {
        action: stored.resolution.action,
        by: stored.resolution.by,
        at: stored.resolution.at,
        note: stored.resolution.note,
        reference: stored.resolution.reference,
        paymentId: stored.resolution.paymentId,
        journalId: stored.resolution.journalId,
      }
    : null;
  return {
    id: stored.id,
    fileId: stored.file_id,
    railId: stored.rail_id,
    rail: stored.rail,
    date: stored.date,
    class: stored.class,
    classLabel: BREAK_CLASS_LABELS[stored.class],
    status: stored.status,
    reference: stored.reference,
    line: stored.line,
    type: (stored.type as ReconciliationBreak["type"]) ?? null,
    fileAmount: money(stored.file_amount_minor),
    ledgerAmount: money(stored.ledger_amount_minor),
    fileFee: money(stored.file_fee_minor),
    ledgerFee: money(stored.ledger_fee_minor),
    currency: stored.currency,
    difference: money(difference),
    suspense: money(stored.suspense_minor),
    reason: stored.reason,
    paymentId: stored.payment_id,
    suspenseJournalId: stored.suspense_journal_id,
    resolution,
    history: stored.history,
    version: stored.version,
    createdAt: stored.created_at,
    committed_at: stored.committed_at,
  };
}

export async function loadBreak(ctx: CoreContext, id: string, date: string): Promise<StoredBreak | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: breakKey(id, date), ConsistentRead: true }),
  );
  return reply.Item?.entity === "recon_break" ? (reply.Item as unknown as StoredBreak) : null;
}

/** A file summary as stored: the reply without its short-lived download link. */
export type StoredFile = Omit<SettlementFile, "downloadUrl"> & { result_key: string | null };

export function fileItem(file: StoredFile) {
  return { ...fileKey(file.id, file.date), entity: "recon_file", ...file };
}

export async function loadFile(ctx: CoreContext, id: string): Promise<StoredFile | null> {
  const parsed = parseFileId(id);
  if (!parsed) return null;
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: fileKey(id, parsed.date), ConsistentRead: true }),
  );
  return reply.Item?.entity === "recon_file" ? stripKeys(reply.Item) : null;
}

/** A stored file summary as the API shows it; summaries stored before `rejection` existed were all reconciled. */
function stripKeys(item: Record<string, unknown>): StoredFile {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return { rejection: null, ...rest } as unknown as StoredFile;
}

const binding = (ctx: CoreContext, scope: Record<string, unknown>): CursorBinding => ({
  secret: ctx.config.CURSOR_KEYS,
  scope,
});

export async function queryFiles(
  ctx: CoreContext,
  filters: {
    railId?: string | undefined;
    status?: FileStatus | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
): Promise<{ files: StoredFile[]; nextCursor: string | null }> {
  const page = await queryPage(
    ctx.db,
    { KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": FILES_PARTITION }, ConsistentRead: true },
    ["pk", "sk"],
    { name: "pk", value: FILES_PARTITION },
    binding(ctx, { route: "reconciliation-files", rail: filters.railId, status: filters.status }),
    { limit: filters.limit ?? DEFAULT_PAGE_SIZE, offset: 0, cursor: filters.cursor },
    (item) => {
      if (item.entity !== "recon_file") return null;
      if (filters.railId && item.railId !== filters.railId) return null;
      if (filters.status && item.status !== filters.status) return null;
      return stripKeys(item);
    },
  );
  return { files: page.items, nextCursor: page.next_cursor };
}

export async function queryBreaks(
  ctx: CoreContext,
  filters: {
    class?: BreakClass | undefined;
    status?: BreakStatus | undefined;
    railId?: string | undefined;
    fileId?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
): Promise<{ breaks: StoredBreak[]; nextCursor: string | null }> {
  const file = filters.fileId ? parseFileId(filters.fileId) : null;
  const condition = file
    ? {
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": BREAKS_PARTITION, ":prefix": fileBreaksPrefix(filters.fileId!, file.date) },
      }
    : { KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": BREAKS_PARTITION } };
  const page = await queryPage(
    ctx.db,
    { ...condition, ConsistentRead: true },
    ["pk", "sk"],
    { name: "pk", value: BREAKS_PARTITION },
    binding(ctx, {
      route: "reconciliation-breaks",
      class: filters.class,
      status: filters.status,
      rail: filters.railId,
      file: filters.fileId,
    }),
    { limit: filters.limit ?? DEFAULT_PAGE_SIZE, offset: 0, cursor: filters.cursor },
    (item) => {
      if (item.entity !== "recon_break") return null;
      if (filters.class && item.class !== filters.class) return null;
      if (filters.status && item.status !== filters.status) return null;
      if (filters.railId && item.rail_id !== filters.railId) return null;
      return item as unknown as StoredBreak;
    },
  );
  return { breaks: page.items, nextCursor: page.next_cursor };
}

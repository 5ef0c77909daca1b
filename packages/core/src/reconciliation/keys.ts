import { createHash } from "node:crypto";

/**
 * Key formats of the reconciliation domain; nothing else builds these keys. Rail ids and dates are
 * checked (model.ts: RailId, SettlementDate) before they get here.
 */

/**
 * Settlement expectations are spread over this many partitions per rail and day, by a hash of the
 * reference, so the attempts completing on a busy rail do not all write one partition; a rail-day
 * is this many Queries.
 */
export const EXPECTATION_SHARDS = 8;

export const expectationShard = (reference: string): number =>
  createHash("sha256").update(reference).digest().readUInt8(0) % EXPECTATION_SHARDS;

export const expectationPartition = (railId: string, date: string, shard: number) =>
  `SETTLE#${railId}#${date}#S${shard}`;

export const expectationKey = (railId: string, date: string, reference: string) => ({
  pk: expectationPartition(railId, date, expectationShard(reference)),
  sk: reference,
});

const FILE_ID = /^([a-z0-9][a-z0-9-]{0,39})_(\d{4}-\d{2}-\d{2})_([0-9a-f]{32})$/;
export function parseFileId(id: string): { railId: string; date: string } | null {
  const match = FILE_ID.exec(id);
  return match ? { railId: match[1]!, date: match[2]! } : null;
}

/**
 * Every file summary lives in one partition, newest settlement day first: a handful of files per
 * day, so one partition is far from any limit and a list is one Query.
 */
export const FILES_PARTITION = "RECON#FILES";
export const fileKey = (fileId: string, date: string) => ({ pk: FILES_PARTITION, sk: `F#${date}#${fileId}` });

/** The rail-day's first reconciled content: a later, different file for the day is not booked again. */
export const railDayKey = (railId: string, date: string) => ({ pk: `RECON#DAY#${railId}#${date}`, sk: "FILE" });

/** An object version already handled: its event delivered again is answered without reading the object. */
export const objectVersionKey = (objectKey: string, versionId: string) => ({
  pk: `RECON#OBJ#${createHash("sha256").update(objectKey).digest("hex")}`,
  sk: versionId || "null",
});

/**
 * Breaks: one partition, newest day first. A break id carries its day (`<railId>_<date>_...`), so
 * its key follows from its id; a file's breaks share the prefix of the file's id.
 */
export const BREAKS_PARTITION = "RECON#BREAKS";
export const breakKey = (breakId: string, date: string) => ({ pk: BREAKS_PARTITION, sk: `B#${date}#${breakId}` });
export const fileBreaksPrefix = (fileId: string, date: string) => `B#${date}#${fileId}~`;
export const lineBreakId = (fileId: string, line: number) => `${fileId}~L${String(line).padStart(9, "0")}`;
export const missingLineBreakId = (fileId: string, reference: string) => `${fileId}~R${reference}`;
export const missingFileBreakId = (railId: string, date: string) => `${railId}_${date}_nofile`;
const BREAK_ID =
  /^([a-z0-9][a-z0-9-]{0,39})_(\d{4}-\d{2}-\d{2})_(?:nofile|[0-9a-f]{32}~(?:L\d{9}|R[A-Za-z0-9_-]{1,64}))$/;
export function parseBreakId(id: string): { railId: string; date: string } | null {
  const match = BREAK_ID.exec(id);
  return match ? { railId: match[1]!, date: match[2]! } : null;
}

/** Clearing position counters of a day: one item per rail and currency (settled and resolved, minor units). */
export const positionPartition = (date: string) => `RECON#POS#${date}`;
export const positionKey = (date: string, railId: string, currency: string) => ({
  pk: positionPartition(date),
  sk: `${railId}#${currency}`,
});

/** Open suspense per currency: what the open breaks hold in the suspense account. */
export const SUSPENSE_PARTITION = "RECON#SUSPENSE";
export const suspenseKey = (currency: string) => ({ pk: SUSPENSE_PARTITION, sk: currency });

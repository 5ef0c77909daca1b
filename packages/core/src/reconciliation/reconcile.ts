import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { CsvError, parse } from "csv-parse";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { toDecimalString, type Currency } from "../money/model";
import { getRail } from "../rails/store";
import type { Rail } from "../rails/model";
import { loadDayExpectations } from "./expectations";
import { isSettlementHeader, parseSettlementRecord } from "./file-format";
import { bookJournal, RECON_ACTOR, reconJournalId } from "./journals";
import { lineBreakId, missingLineBreakId, objectVersionKey, positionKey, railDayKey, suspenseKey } from "./keys";
import { SettlementMatcher, type LineOutcome } from "./matcher";
import {
  AMOUNT_TOLERANCE_MINOR,
  FILE_STATUS_LABELS,
  fileStatusOf,
  noBreaks,
  REJECTION_MESSAGES,
  SETTLEMENT_KEY_PATTERN,
  settlementFileId,
  type BreakClass,
  type BreakCounts,
  type FileSource,
} from "./model";
import { ResultWriter, resultKey, resultRow } from "./results";
import { fileItem, loadFile, newBreak, putNewBreak, type StoredFile } from "./store";

/**
 * Reconciling one settlement object (docs/money-operations.md#reconciliation): read twice as a
 * stream (once to hash it and check it is a settlement CSV at all, once to match it), never held in
 * memory; the rail-day's expectations are. Idempotent: the file's id is its rail, day and content
 * hash, and its summary is a conditional Put written last, after the breaks (conditional Puts) and
 * the journals (keyed by the file id), so a re-run after a crash completes what is missing and a
 * second delivery of the same content, under any key or version, finds the summary and changes
 * nothing. A file rejected whole (not CSV, another header, no lines) is recorded the same way,
 * with nothing booked.
 */

export interface ReconcileStats {
  itemsRead: number;
  itemsWritten: number;
}

export type ReconcileOutcome =
  | { outcome: "reconciled"; file: StoredFile; stats: ReconcileStats }
  | { outcome: "already_reconciled"; fileId: string }
  | { outcome: "ignored"; reason: string };

/** Breaks written at once: enough to keep DynamoDB busy, few enough to bound memory. */
const BREAK_WRITE_CONCURRENCY = 16;
/** Longest line csv-parse accepts; a longer one fails the file rather than growing a buffer. */
const MAX_LINE_BYTES = 4096;

async function objectBody(ctx: CoreContext, key: string, versionId: string | null): Promise<Readable> {
  const client = await ctx.storage.client();
  const reply = await client.send(
    new GetObjectCommand({
      Bucket: ctx.storage.settlementsBucket,
      Key: key,
      ...(versionId ? { VersionId: versionId } : {}),
    }),
  );
  return reply.Body as Readable;
}

async function sha256Of(ctx: CoreContext, key: string, versionId: string | null): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of await objectBody(ctx, key, versionId)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const settlementParser = () =>
  parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_LINE_BYTES });

/**
 * The first read: the object's sha256 and, parsed on the way, why it is not a settlement file at
 * all (null: it is). Every record is read, so the hash covers the whole object; a file that stops
 * being CSV part-way is hashed again on its own.
 */
async function inspectObject(
  ctx: CoreContext,
  key: string,
  versionId: string | null,
): Promise<{ sha256: string; rejection: string | null }> {
  const hash = createHash("sha256");
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let records = 0;
  let headerProblem = false;
  try {
    await pipeline(await objectBody(ctx, key, versionId), hashing, settlementParser(), async (parsed) => {
      for await (const record of parsed as AsyncIterable<string[]>) {
        if (records === 0 && !isSettlementHeader(record)) headerProblem = true;
        records++;
      }
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { sha256: await sha256Of(ctx, key, versionId), rejection: REJECTION_MESSAGES.notCsv(error.message) };
  }
  const rejection = records === 0 ? REJECTION_MESSAGES.empty : headerProblem ? REJECTION_MESSAGES.header : null;
  return { sha256: hash.digest("hex"), rejection };
}

async function alreadyHandled(ctx: CoreContext, key: string, versionId: string | null): Promise<string | null> {
  if (!versionId) return null;
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: objectVersionKey(key, versionId), ConsistentRead: true }),
  );
  return typeof reply.Item?.file_id === "string" ? reply.Item.file_id : null;
}

/** Reconciles the object at `key` (the version given, or the current one). */
export async function reconcileObject(
  ctx: CoreContext,
  object: { key: string; versionId?: string | null | undefined; source: FileSource; now?: Date },
): Promise<ReconcileOutcome> {
  const match = SETTLEMENT_KEY_PATTERN.exec(object.key);
  if (!match) return { outcome: "ignored", reason: "not a settlement file key (incoming/<rail>/<YYYY-MM-DD>.csv)" };
  const [, railId, date] = match as unknown as [string, string, string];
  const versionId = object.versionId ?? null;
  const handled = await alreadyHandled(ctx, object.key, versionId);
  if (handled) return { outcome: "already_reconciled", fileId: handled };
  let rail: Rail;
  try {
    rail = await getRail(ctx, railId);
  } catch {
    return { outcome: "ignored", reason: `no rail ${railId}` };
  }
  const { sha256, rejection } = await inspectObject(ctx, object.key, versionId);
  const fileId = settlementFileId(railId, date, sha256);
  if (await loadFile(ctx, fileId)) {
    await recordObjectVersion(ctx, object.key, versionId, fileId);
    return { outcome: "already_reconciled", fileId };
  }
  const day = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: railDayKey(railId, date), ConsistentRead: true }),
  );
  const base = {
    id: fileId,
    railId,
    rail: rail.name,
    filename: object.key.slice(object.key.lastIndexOf("/") + 1),
    key: object.key,
    versionId,
    sha256,
    date,
    source: object.source,
  };
  if (rejection) return rejectedFile(ctx, base, rejection);
  if (day.Item && day.Item.file_id !== fileId) return supersededFile(ctx, base, String(day.Item.file_id));
  return runReconciliation(ctx, base, rail, object.now ?? ctx.clock());
}

type FileBase = Pick<
  StoredFile,
  "id" | "railId" | "rail" | "filename" | "key" | "versionId" | "sha256" | "date" | "source"
>;

async function runReconciliation(ctx: CoreContext, base: FileBase, rail: Rail, now: Date): Promise<ReconcileOutcome> {
  const at = now.toISOString();
  const { expectations, itemsRead } = await loadDayExpectations(ctx, base.railId, base.date);
  const matcher = new SettlementMatcher(expectations, {
    railId: rail.id,
    railName: rail.name,
    settlementSeconds: rail.settlementSeconds,
    toleranceMinor: AMOUNT_TOLERANCE_MINOR,
  });
  const suspenseJournalKey = (currency: Currency) => `recon:${base.id}:suspense:${currency}`;
  const writer = new ResultWriter(ctx, resultKey(base.id));
  const inFlight = new Set<Promise<void>>();
  let itemsWritten = 0;
  const raise = async (outcome: LineOutcome) => {
    if (outcome.class === "matched") return;
    const id =
      outcome.line === null ? missingLineBreakId(base.id, outcome.reference) : lineBreakId(base.id, outcome.line);
    const stored = newBreak(
      {
        id,
        fileId: base.id,
        railId: base.railId,
        rail: base.rail,
        date: base.date,
        suspenseJournalId: outcome.currency ? reconJournalId(suspenseJournalKey(outcome.currency)) : null,
        at,
      },
      { ...outcome, class: outcome.class as BreakClass },
    );
    const write = putNewBreak(ctx, stored).then((put) => {
      if (put) itemsWritten++;
    });
    const tracked = write.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= BREAK_WRITE_CONCURRENCY) await Promise.race(inFlight);
  };
  try {
    const parser = (await objectBody(ctx, base.key, base.versionId)).pipe(settlementParser());
    let header = true;
    let lineNumber = 0;
    for await (const record of parser as AsyncIterable<string[]>) {
      if (header) {
        header = false;
        // inspectObject read this content and found the header; only an object replaced in place
        // (an unversioned bucket) gets here: the retry inspects it again.
        if (!isSettlementHeader(record)) throw new Error(`${base.key} changed while it was reconciled`);
        continue;
      }
      lineNumber++;
      const outcome = matcher.accept(lineNumber, parseSettlementRecord(record));
      await writer.add(resultRow(outcome));
      await raise(outcome);
    }
    if (header) throw new Error(`${base.key} changed while it was reconciled`);
    for (const outcome of matcher.missing()) {
      await writer.add(resultRow(outcome));
      await raise(outcome);
    }
    await Promise.all(inFlight);
    await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  itemsWritten += 1;

  const suspenseJournalIds: string[] = [];
  const settlementJournalIds: string[] = [];
  for (const [currency, tally] of matcher.tallies) {
    if (tally.suspenseMinor !== 0) {
      suspenseJournalIds.push(
        await bookJournal(
          ctx,
          {
            key: suspenseJournalKey(currency),
            currency,
            deltas: { railsettled: tally.suspenseMinor, suspense: -tally.suspenseMinor },
            description: `Settlement ${base.rail} ${base.date}: unmatched amounts to suspense`,
            actor: RECON_ACTOR,
          },
          [counterAdd(ctx, suspenseKey(currency), { open_minor: tally.suspenseMinor }, at)],
        ),
      );
      itemsWritten += 5;
    }
    const settlement = {
      clearing: -tally.matchedLedgerMinor,
      railsettled: tally.matchedFileMinor,
      writeoffs: tally.matchedLedgerMinor - tally.matchedFileMinor,
    };
    if (Object.values(settlement).some((amount) => amount !== 0)) {
      settlementJournalIds.push(
        await bookJournal(
          ctx,
          {
            key: `recon:${base.id}:settlement:${currency}`,
            currency,
            deltas: settlement,
            description: `Settlement ${base.rail} ${base.date}: matched lines out of clearing`,
            actor: RECON_ACTOR,
          },
          [
            counterAdd(
              ctx,
              positionKey(base.date, base.railId, currency),
              { settled_minor: tally.matchedLedgerMinor },
              at,
              { rail_id: base.railId, rail: base.rail, date: base.date, currency },
            ),
          ],
        ),
      );
      itemsWritten += 7;
    }
  }

  const variance = matcher.variance();
  const status = fileStatusOf(variance.file);
  const breakCounts: BreakCounts = noBreaks();
  for (const [kind, count] of matcher.counts) if (kind !== "matched") breakCounts[kind as BreakClass] = count;
  const file: StoredFile = {
    ...base,
    importedAt: at,
    variance: round(variance.file),
    status,
    statusLabel: FILE_STATUS_LABELS[status],
    lines: matcher.lines,
    matched: matcher.counts.get("matched") ?? 0,
    breakCounts,
    totals: [...matcher.tallies].map(([currency, tally]) => ({
      currency,
      file: toDecimalString(tally.fileMinor, currency),
      matched: toDecimalString(tally.matchedFileMinor, currency),
      ledger: toDecimalString(tally.matchedLedgerMinor, currency),
      fees: toDecimalString(tally.fileFeesMinor, currency),
      variance: round(variance.perCurrency.get(currency) ?? 0),
    })),
    suspenseJournalIds,
    settlementJournalIds,
    rejection: null,
    committed_at: at,
    result_key: resultKey(base.id),
  };
  await commitSummary(ctx, file);
  itemsWritten += 3;
  return { outcome: "reconciled", file, stats: { itemsRead: itemsRead + 4, itemsWritten } };
}

const round = (percent: number) => Math.round(percent * 10_000) / 10_000;

/** An ADD of counters on an item, as an extra item of a journal's post. */
export function counterAdd(
  ctx: CoreContext,
  key: { pk: string; sk: string },
  counters: Record<string, number>,
  at: string,
  fields: Record<string, string> = {},
) {
  const names = Object.keys(counters);
  const fieldNames = Object.keys(fields);
  const sets = ["committed_at = :at", ...fieldNames.map((_, index) => `#f${index} = :f${index}`)];
  return {
    Update: {
      TableName: ctx.db.table,
      Key: key,
      UpdateExpression: `SET ${sets.join(", ")} ADD ${names.map((_, index) => `#c${index} :c${index}`).join(", ")}`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(names.map((name, index) => [`#c${index}`, name])),
        ...Object.fromEntries(fieldNames.map((name, index) => [`#f${index}`, name])),
      },
      ExpressionAttributeValues: {
        ":at": at,
        ...Object.fromEntries(names.map((name, index) => [`:c${index}`, counters[name]])),
        ...Object.fromEntries(fieldNames.map((name, index) => [`:f${index}`, fields[name]])),
      },
    },
  };
}

/**
 * The summary, the rail-day's first file and the object version, together; a lost race changes
 * nothing. A rejected file does not claim the day: a good file may still come, and until one does
 * the nightly check raises the day's missing_file break.
 */
async function commitSummary(ctx: CoreContext, file: StoredFile): Promise<void> {
  const claimDay = file.rejection === null;
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: ctx.db.table, Item: fileItem(file), ConditionExpression: "attribute_not_exists(pk)" } },
          ...(claimDay
            ? [
                {
                  Update: {
                    TableName: ctx.db.table,
                    Key: railDayKey(file.railId, file.date),
                    UpdateExpression: "SET file_id = if_not_exists(file_id, :id)",
                    ExpressionAttributeValues: { ":id": file.id },
                  },
                },
              ]
            : []),
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...objectVersionKey(file.key, file.versionId ?? ""), file_id: file.id },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === "ConditionalCheckFailed") return;
    throw error;
  }
}

async function recordObjectVersion(ctx: CoreContext, key: string, versionId: string | null, fileId: string) {
  if (!versionId) return;
  await ctx.db.doc.send(
    new UpdateCommand({
      TableName: ctx.db.table,
      Key: objectVersionKey(key, versionId),
      UpdateExpression: "SET file_id = :id",
      ExpressionAttributeValues: { ":id": fileId },
    }),
  );
}

/**
 * Another content for a rail-day already reconciled: nothing is booked a second time (its lines
 * would settle the same attempts again); the file is recorded as Requires Review with one
 * duplicate_line break naming the file that was reconciled.
 */
async function supersededFile(ctx: CoreContext, base: FileBase, reconciledId: string): Promise<ReconcileOutcome> {
  const at = ctx.clock().toISOString();
  const rejection = REJECTION_MESSAGES.superseded(reconciledId);
  await putNewBreak(
    ctx,
    newBreak(
      {
        id: lineBreakId(base.id, 0),
        fileId: base.id,
        railId: base.railId,
        rail: base.rail,
        date: base.date,
        suspenseJournalId: null,
        at,
      },
      {
        class: "duplicate_line",
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
        reason: rejection,
      },
    ),
  );
  const file = unbookedFile(base, at, rejection, { ...noBreaks(), duplicate_line: 1 });
  await commitSummary(ctx, file);
  return { outcome: "reconciled", file, stats: { itemsRead: 4, itemsWritten: 4 } };
}

/** A file that is not a settlement file at all: recorded as Requires Review with the reason, nothing booked. */
async function rejectedFile(ctx: CoreContext, base: FileBase, rejection: string): Promise<ReconcileOutcome> {
  const file = unbookedFile(base, ctx.clock().toISOString(), rejection, noBreaks());
  await commitSummary(ctx, file);
  return { outcome: "reconciled", file, stats: { itemsRead: 3, itemsWritten: 2 } };
}

function unbookedFile(base: FileBase, at: string, rejection: string, breakCounts: BreakCounts): StoredFile {
  return {
    ...base,
    importedAt: at,
    variance: 100,
    status: "error",
    statusLabel: FILE_STATUS_LABELS.error,
    lines: 0,
    matched: 0,
    breakCounts,
    totals: [],
    suspenseJournalIds: [],
    settlementJournalIds: [],
    rejection,
    committed_at: at,
    result_key: null,
  };
}

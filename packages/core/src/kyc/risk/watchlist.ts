import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { cancellationCodes, isAwsError, queryAll, type Database } from "../../shared/dynamo";
import { badRequest, serviceUnavailable } from "../../shared/errors";
import {
  currentWatchlistKey,
  WATCHLIST_VERSION_PREFIX,
  watchlistEntriesPartition,
  watchlistEntryKey,
  watchlistVersionKey,
  WATCHLIST_PARTITION,
} from "../keys";
import { WatchlistEntry, type WatchlistSummary } from "./model";
import { jaroWinkler, MAX_NAME_LENGTH, normaliseName, sortedTokens } from "./names";

/**
 * Sanctions / PEP watchlists, uploaded by admins as CSV and screened by fuzzy name match.
 *
 * Storage: an upload becomes a new numbered version (header item under KYCWATCH, entries in
 * chunks of a few hundred under the version's own partition), and the CURRENT pointer moves to
 * it only once every chunk is written, so screening never sees half a list. Entries are kept in
 * chunks rather than one item each: 20,000 single-item writes cost 20,000 write units; 40 chunk
 * items cost a handful of batch calls.
 *
 * Screening reads the CURRENT pointer (one consistent GetItem) on every call and keeps the
 * entries of the version it names in memory, per table: an upload on one instance is used by
 * every other on its next screening, and the list is fetched once per instance per version.
 */

export const WATCHLIST_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  maxRows: 20_000,
  maxAliases: 20,
  maxFieldLength: 200,
  maxLabelLength: 200,
} as const;
/** Jaro-Winkler on normalised names at or above which a name is a hit. */
export const WATCHLIST_MATCH_THRESHOLD = 0.92;
const MAX_HITS = 10;
/** Entries per stored chunk, and the chunk's JSON size at most: well inside DynamoDB's 400 KB item. */
const ENTRIES_PER_CHUNK = 250;
const MAX_CHUNK_BYTES = 300_000;
const COLUMNS = ["name", "aliases", "country", "list", "type"] as const;

/**
 * An entry ready for matching: its names normalised (as written, and with sorted parts). Made
 * when a version is loaded into memory, not stored: it would double the items' size (and write
 * cost) to save work done only once per instance and version.
 */
export type PreparedEntry = WatchlistEntry & { keys: [asWritten: string, sorted: string][] };

export const WatchlistVersion = z.object({
  version: z.number().int(),
  name: z.string(),
  entries: z.number().int(),
  lists: z.record(z.string(), z.number().int()),
  chunks: z.number().int(),
  uploaded_at: z.string(),
  uploaded_by: z.string(),
});
export type WatchlistVersion = z.infer<typeof WatchlistVersion>;

export interface WatchlistHit {
  entry: WatchlistEntry;
  /** The name or alias that matched, as the list writes it. */
  matched: string;
  score: number;
}

const csvError = (line: number | string, message: string) =>
  badRequest(`Watchlist CSV line ${line}: ${message}`, "invalid_watchlist");

const bounded = (value: string, column: string, line: number) => {
  if (value.length > WATCHLIST_LIMITS.maxFieldLength)
    throw csvError(line, `${column} is longer than ${WATCHLIST_LIMITS.maxFieldLength} characters`);
  return value;
};

/**
 * Parses a watchlist CSV: a header row with `name` and any of aliases (separated by ; or |),
 * country, list, type; other columns are ignored (and reported). Every problem names its line.
 */
export function parseWatchlistCsv(text: string): { entries: WatchlistEntry[]; ignoredColumns: string[] } {
  if (Buffer.byteLength(text, "utf8") > WATCHLIST_LIMITS.maxBytes)
    throw badRequest(`A watchlist CSV is at most ${WATCHLIST_LIMITS.maxBytes / 1024 / 1024} MB`, "invalid_watchlist");
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: 64 * 1024,
    }) as unknown as typeof rows;
  } catch (error) {
    const { lines, message } = error as { lines?: number; message?: string };
    throw csvError(lines ?? "?", message ?? "not valid CSV");
  }
  const [header, ...records] = rows;
  if (!header)
    throw badRequest("The watchlist CSV is empty: it needs a header row with a name column", "invalid_watchlist");
  const columns = header.record.map((column) => column.toLowerCase());
  const at = (column: (typeof COLUMNS)[number]) => columns.indexOf(column);
  if (at("name") < 0)
    throw csvError(header.info.lines, `the header has no name column (columns: ${COLUMNS.join(", ")})`);
  if (records.length > WATCHLIST_LIMITS.maxRows)
    throw badRequest(`A watchlist has at most ${WATCHLIST_LIMITS.maxRows} rows`, "invalid_watchlist");
  if (records.length === 0) throw badRequest("The watchlist CSV has a header but no entries", "invalid_watchlist");
  const field = (record: string[], column: (typeof COLUMNS)[number], line: number) =>
    at(column) >= 0 ? bounded(record[at(column)] ?? "", column, line) : "";
  const entries = records.map(({ record, info }) => {
    const line = info.lines;
    const name = field(record, "name", line);
    if (!normaliseName(name)) throw csvError(line, "name is empty");
    const aliases = (at("aliases") >= 0 ? (record[at("aliases")] ?? "") : "")
      .split(/[;|]/)
      .map((alias) => alias.trim())
      .filter(Boolean);
    if (aliases.length > WATCHLIST_LIMITS.maxAliases)
      throw csvError(line, `more than ${WATCHLIST_LIMITS.maxAliases} aliases`);
    for (const alias of aliases) bounded(alias, "an alias", line);
    return {
      name,
      aliases,
      country: field(record, "country", line).toUpperCase(),
      list: field(record, "list", line).toLowerCase() || "sanctions",
      type: field(record, "type", line).toLowerCase(),
    };
  });
  return {
    entries,
    ignoredColumns: header.record.filter((column) => !(COLUMNS as readonly string[]).includes(column.toLowerCase())),
  };
}

function preparedEntry(entry: WatchlistEntry): PreparedEntry {
  const keys = [entry.name, ...entry.aliases]
    .map(normaliseName)
    .filter(Boolean)
    .map((normalised) => [normalised, sortedTokens(normalised)] as [string, string]);
  return { ...entry, keys };
}

/** The best hits of a name among entries, at or above the threshold, best first. */
export function matchName(
  entries: readonly PreparedEntry[],
  name: string,
  threshold = WATCHLIST_MATCH_THRESHOLD,
): WatchlistHit[] {
  const normalised = normaliseName(name);
  if (!normalised) return [];
  const sorted = sortedTokens(normalised);
  const hits: WatchlistHit[] = [];
  for (const entry of entries) {
    let best = 0;
    let matched = entry.name;
    for (const [index, [asWritten, sortedKey]] of entry.keys.entries()) {
      const score =
        asWritten === normalised || sortedKey === sorted
          ? 1
          : Math.max(jaroWinkler(sorted, sortedKey), jaroWinkler(normalised, asWritten));
      if (score > best) {
        best = score;
        matched = index === 0 ? entry.name : (entry.aliases[index - 1] ?? entry.name);
      }
    }
    if (best >= threshold)
      hits.push({
        entry: { name: entry.name, aliases: entry.aliases, country: entry.country, list: entry.list, type: entry.type },
        matched,
        score: best,
      });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, MAX_HITS);
}

/** Entries prepared for matching (normalised keys). */
export const prepareEntries = (entries: WatchlistEntry[]): PreparedEntry[] => entries.map(preparedEntry);

async function latestVersion(ctx: CoreContext): Promise<number> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": WATCHLIST_PARTITION, ":prefix": WATCHLIST_VERSION_PREFIX },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const version = reply.Items?.[0]?.version;
  return typeof version === "number" ? version : 0;
}

async function writeChunks(ctx: CoreContext, version: number, entries: WatchlistEntry[]): Promise<number> {
  const chunks: WatchlistEntry[][] = [[]];
  let bytes = 0;
  for (const entry of entries) {
    const size = JSON.stringify(entry).length;
    if (chunks.at(-1)!.length >= ENTRIES_PER_CHUNK || bytes + size > MAX_CHUNK_BYTES) {
      chunks.push([]);
      bytes = 0;
    }
    chunks.at(-1)!.push(entry);
    bytes += size;
  }
  const items = chunks.map((chunk, index) => ({
    ...watchlistEntryKey(version, index),
    entity: "kyc_watchlist_chunk",
    version,
    entries: chunk,
  }));
  for (let start = 0; start < items.length; start += 25) {
    let pending: Record<string, unknown>[] = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= 8) throw serviceUnavailable("The watchlist could not be stored; please try again");
      const reply = await ctx.db.doc.send(new BatchWriteCommand({ RequestItems: { [ctx.db.table]: pending } }));
      pending = (reply.UnprocessedItems?.[ctx.db.table] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return items.length;
}

/**
 * Stores a parsed upload as the next version and makes it current. The version number is
 * claimed first (conditional put), so two concurrent uploads get two versions and never write
 * into each other's partition; the pointer only moves forward.
 */
export async function uploadWatchlist(
  ctx: CoreContext,
  input: { csv: string; name?: string | undefined },
  uploadedBy: string,
): Promise<WatchlistSummary & { ignored_columns: string[] }> {
  const { entries, ignoredColumns } = parseWatchlistCsv(input.csv);
  const label = (input.name ?? "").trim().slice(0, WATCHLIST_LIMITS.maxLabelLength) || "Watchlist";
  const now = ctx.clock().toISOString();
  const lists: Record<string, number> = {};
  for (const entry of entries) lists[entry.list] = (lists[entry.list] ?? 0) + 1;
  let version = (await latestVersion(ctx)) + 1;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await ctx.db.doc.send(
        new PutCommand({
          TableName: ctx.db.table,
          Item: { ...watchlistVersionKey(version), entity: "kyc_watchlist", status: "uploading", version },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      break;
    } catch (error) {
      if (!isAwsError(error, "ConditionalCheckFailedException") || attempt >= 8) throw error;
      version += 1;
    }
  }
  const chunks = await writeChunks(ctx, version, entries);
  const header: WatchlistVersion = {
    version,
    name: label,
    entries: entries.length,
    lists,
    chunks,
    uploaded_at: now,
    uploaded_by: uploadedBy,
  };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...watchlistVersionKey(version), entity: "kyc_watchlist", status: "ready", ...header },
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...currentWatchlistKey(), entity: "kyc_watchlist_current", version, updated_at: now },
              ConditionExpression: "attribute_not_exists(pk) OR version < :version",
              ExpressionAttributeValues: { ":version": version },
            },
          },
        ],
      }),
    );
  } catch (error) {
    // A later upload became current first: this one stays stored as an older version.
    if (cancellationCodes(error)?.[1] !== "ConditionalCheckFailed") throw error;
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: { ...watchlistVersionKey(version), entity: "kyc_watchlist", status: "ready", ...header },
      }),
    );
  }
  return { ...summaryOf(header, entries), ignored_columns: ignoredColumns };
}

function summaryOf(header: WatchlistVersion | null, entries: readonly WatchlistEntry[]): WatchlistSummary {
  return {
    version: header?.version ?? null,
    name: header?.name ?? null,
    entries: header?.entries ?? 0,
    lists: header?.lists ?? {},
    uploaded_at: header?.uploaded_at ?? null,
    uploaded_by: header?.uploaded_by ?? null,
    sample: entries.slice(0, 10),
  };
}

async function currentVersion(ctx: CoreContext): Promise<WatchlistVersion | null> {
  const pointer = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: currentWatchlistKey(), ConsistentRead: true }),
  );
  const version = pointer.Item?.version;
  if (typeof version !== "number") return null;
  const header = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: watchlistVersionKey(version), ConsistentRead: true }),
  );
  return header.Item ? WatchlistVersion.parse(header.Item) : null;
}

/** Entries of versions already read, per table (a version never changes once current). */
const loaded = new WeakMap<Database, { version: number; entries: PreparedEntry[] }>();

async function currentEntries(ctx: CoreContext): Promise<PreparedEntry[]> {
  const pointer = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: currentWatchlistKey(), ConsistentRead: true }),
  );
  const version = pointer.Item?.version;
  if (typeof version !== "number") return [];
  const cached = loaded.get(ctx.db);
  if (cached?.version === version) return cached.entries;
  const items = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": watchlistEntriesPartition(version) },
    ConsistentRead: true,
  });
  const entries = prepareEntries(items.flatMap((item) => z.array(WatchlistEntry).parse(item.entries)));
  loaded.set(ctx.db, { version, entries });
  return entries;
}

/**
 * Hits of a name on the current watchlist (similarity >= 0.92 on normalised names, token order
 * ignored), best first.
 */
export async function screenName(ctx: CoreContext, name: string): Promise<WatchlistHit[]> {
  if (!name.trim()) return [];
  const entries = await currentEntries(ctx);
  return matchName(entries, name.slice(0, MAX_NAME_LENGTH));
}

/** The current watchlist: version, counts and the first entries. */
export async function watchlistSummary(ctx: CoreContext): Promise<WatchlistSummary> {
  const header = await currentVersion(ctx);
  if (!header) return summaryOf(null, []);
  const first = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: watchlistEntryKey(header.version, 0), ConsistentRead: true }),
  );
  return summaryOf(header, z.array(WatchlistEntry).parse(first.Item?.entries ?? []));
}

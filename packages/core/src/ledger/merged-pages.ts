import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Database } from "../shared/dynamo";
import { badRequest } from "../shared/errors";
import { signCursor, verifyCursor, type CursorBinding } from "../shared/cursor";
import type { Page, PageQuery } from "../shared/pagination";

/**
 * Newest-first pages over several index partitions at once, as one list ordered by sort key.
 *
 * The sources must hold disjoint items whose sort keys compare in the merged order (here
 * `<ISO instant>#<id>` on every source), so one sort key is a position in the merged list: the
 * cursor is the sort key of the last item returned, signed and bound to the query. The next page
 * reads each source strictly below it, so no item is skipped or repeated, whichever source the
 * last item came from and however the sources interleave.
 */
export interface MergedSource<T> {
  indexName: string;
  partition: { name: string; value: string };
  sortKeyName: string;
  /** Inclusive bounds on the sort key (a date range), either optional. */
  range: { from?: string | undefined; to?: string | undefined };
  /** The item as the page holds it, or null to leave it out (filters a key condition cannot express). */
  accept: (item: Record<string, unknown>) => T | null;
}

const CURSOR_FIELDS = ["before"] as const;
/** Our sort keys are an instant, '#' and an id: far shorter than this. */
const MAX_SORT_KEY_LENGTH = 200;

interface Collected<T> {
  item: T;
  sortKey: string;
}

/** Up to `wanted` accepted items of one source with sort keys strictly below `before`, newest first. */
async function collect<T>(
  db: Database,
  source: MergedSource<T>,
  before: string | undefined,
  wanted: number,
): Promise<Collected<T>[]> {
  const upper =
    before !== undefined && (source.range.to === undefined || before < source.range.to) ? before : source.range.to;
  const values: Record<string, string> = { ":pk": source.partition.value };
  let range = "";
  if (source.range.from !== undefined) values[":from"] = source.range.from;
  if (upper !== undefined) values[":upper"] = upper;
  if (source.range.from !== undefined && upper !== undefined)
    range = ` AND ${source.sortKeyName} BETWEEN :from AND :upper`;
  else if (source.range.from !== undefined) range = ` AND ${source.sortKeyName} >= :from`;
  else if (upper !== undefined) range = ` AND ${source.sortKeyName} <= :upper`;
  // An empty range (from above the cursor) has nothing, and DynamoDB refuses BETWEEN a AND b with a > b.
  if (source.range.from !== undefined && upper !== undefined && source.range.from > upper) return [];

  const collected: Collected<T>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: source.indexName,
        KeyConditionExpression: `${source.partition.name} = :pk${range}`,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ExclusiveStartKey: start,
        Limit: Math.min(1000, wanted * 2),
      }),
    );
    for (const raw of reply.Items ?? []) {
      const sortKey = String(raw[source.sortKeyName]);
      // BETWEEN and <= include the cursor's own item: it was on the previous page.
      if (before !== undefined && sortKey >= before) continue;
      const accepted = source.accept(raw);
      if (accepted === null) continue;
      collected.push({ item: accepted, sortKey });
      if (collected.length >= wanted) return collected;
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  return collected;
}

/**
 * One page of the merged list, with offset or cursor paging like queryPage. Each source is read
 * for at most offset + limit + 1 accepted items: if any source has more than that, the merged
 * list does too, so `has_more` is exact.
 */
export async function mergedPage<T>(
  db: Database,
  sources: MergedSource<T>[],
  binding: CursorBinding,
  page: PageQuery,
): Promise<Page<T>> {
  let before: string | undefined;
  if (page.cursor) {
    before = verifyCursor(binding, page.cursor, CURSOR_FIELDS).before!;
    if (before.length === 0 || before.length > MAX_SORT_KEY_LENGTH)
      throw badRequest("Invalid cursor", "invalid_cursor");
  }
  const wanted = (page.cursor ? 0 : page.offset) + page.limit + 1;
  const perSource = await Promise.all(sources.map((source) => collect(db, source, before, wanted)));
  const merged = perSource.flat().sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0));
  const window = merged.slice(page.cursor ? 0 : page.offset);
  const hasMore = window.length > page.limit;
  const items = window.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: items.map((entry) => entry.item),
    has_more: hasMore,
    next_cursor: hasMore && last ? signCursor(binding, { before: last.sortKey }) : null,
  };
}

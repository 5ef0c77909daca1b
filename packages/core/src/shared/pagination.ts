import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { Database } from "./dynamo";
import { badRequest } from "./errors";
import { signCursor, verifyCursor, type CursorBinding } from "./cursor";

export const MAX_PAGE_SIZE = 200;
/** Offsets cost a read of everything skipped; deeper pages use the cursor. */
export const MAX_OFFSET = 5000;

export const PageQuery = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`)
    .default(50),
  offset: z.coerce
    .number({ error: "offset must be a number" })
    .int("offset must be a whole number")
    .min(0, "offset cannot be negative")
    .max(MAX_OFFSET, `offset must be at most ${MAX_OFFSET}; use the cursor for deeper pages`)
    .default(0),
  /** Opaque; checked (length, signature, query) by verifyCursor, which answers invalid_cursor. */
  cursor: z.string().optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

type Key = Record<string, string>;

/**
 * Newest-first pages over one partition, with either offset or cursor paging. Items can be
 * filtered in code (accept), so a page may need several reads; the cursor always points just
 * after the last item returned. Cursors are signed and bound to the query (see cursor.ts); a
 * verified cursor is still checked to be of this partition, as a second line of defence.
 */
export async function queryPage<T>(
  db: Database,
  input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit" | "ScanIndexForward">,
  keyNames: string[],
  partition: { name: string; value: string },
  binding: CursorBinding,
  page: PageQuery,
  accept: (item: Record<string, unknown>) => T | null,
): Promise<Page<T>> {
  const wanted = (page.cursor ? 0 : page.offset) + page.limit + 1;
  const collected: { item: T; key: Key }[] = [];
  let start: Key | undefined = page.cursor ? verifyCursor(binding, page.cursor, keyNames) : undefined;
  if (start && start[partition.name] !== partition.value) throw badRequest("Invalid cursor", "invalid_cursor");
  do {
    const reply = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ScanIndexForward: false,
        ExclusiveStartKey: start,
        Limit: Math.min(1000, wanted * 2),
      }),
    );
    for (const raw of reply.Items ?? []) {
      const accepted = accept(raw);
      if (accepted === null) continue;
      collected.push({ item: accepted, key: Object.fromEntries(keyNames.map((name) => [name, String(raw[name])])) });
      if (collected.length >= wanted) break;
    }
    start = reply.LastEvaluatedKey as Key | undefined;
  } while (start && collected.length < wanted);
  const window = collected.slice(page.cursor ? 0 : page.offset);
  const hasMore = window.length > page.limit;
  const items = window.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: items.map((entry) => entry.item),
    has_more: hasMore,
    next_cursor: hasMore && last ? signCursor(binding, last.key) : null,
  };
}

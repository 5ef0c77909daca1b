/**
 * What the ledger benchmark counts about the store, per phase: every DynamoDB call by operation,
 * how transactions ended, items per committed transaction, and where the committed writes land,
 * by partition key of the base table and of each index the written item populates (the index
 * definitions come from infra/resources, as the table does).
 *
 * Why the partition keys: DynamoDB Local has no partition limits, so a key that every write of
 * one kind lands on (one index partition for every deposit, say) costs nothing here and caps the
 * cloud at about 1,000 writes/s per partition. Counting the busiest key's share of all writes
 * reads that ceiling from a local run.
 */
import type { CoreContext } from "@fintech/core/shared/context";
import { appTable } from "../resources/table";
import { countCall, newCapacityUnits, type CapacityUnits } from "./ledger-capacity";

/** Where writes landed: per table or index, per partition key value, how many item writes. */
export type Landings = Map<string, Map<string, number>>;

export interface Counters {
  calls: Map<string, number>;
  /** Committed TransactWriteItems and their items. */
  transactions: number;
  transactItems: number;
  cancelled: number;
  cancelReasons: Map<string, number>;
  landings: Landings;
  /** What DynamoDB would bill for the phase's calls (ledger-capacity.ts). */
  units: CapacityUnits;
  /** Head reads: Queries for the newest version of a balance chain. */
  headReads: number;
}

export const newCounters = (): Counters => ({
  calls: new Map(),
  transactions: 0,
  transactItems: 0,
  cancelled: 0,
  cancelReasons: new Map(),
  landings: new Map(),
  units: newCapacityUnits(),
  headReads: 0,
});

/** A Query for the newest balance version of one chain (Limit 1, newest first). */
const isHeadRead = (name: string, input: Record<string, unknown>) =>
  name === "Query" &&
  input.Limit === 1 &&
  input.ScanIndexForward === false &&
  input.IndexName === undefined &&
  String(input.KeyConditionExpression).includes("begins_with(sk");

/** The partition key attributes: the base table's, then each index's. */
const PARTITIONS: { name: string; attribute: string }[] = [
  { name: "table", attribute: appTable.partitionKey },
  ...appTable.globalIndexes.map((index) => ({ name: index.name, attribute: index.partitionKey })),
];

/** An attribute as the document client passes it (plain) or as the raw client does ({S: ...}). */
function text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && "S" in value && typeof value.S === "string") return value.S;
  return undefined;
}

interface WrittenItem {
  /** A Put's whole item: every index whose key it holds gets a write. */
  item?: Record<string, unknown>;
  /** An Update's key: the base table write (the ledger's updates never change index keys). */
  key?: Record<string, unknown>;
}

function land(landings: Landings, written: WrittenItem): void {
  const count = (partition: string, key: string | undefined) => {
    if (key === undefined) return;
    const keys = landings.get(partition) ?? new Map<string, number>();
    keys.set(key, (keys.get(key) ?? 0) + 1);
    landings.set(partition, keys);
  };
  if (written.item) for (const { name, attribute } of PARTITIONS) count(name, text(written.item[attribute]));
  else if (written.key) count("table", text(written.key[appTable.partitionKey]));
}

/** The items one write call wrote, by command. */
function writtenItems(command: string, input: Record<string, unknown>): WrittenItem[] {
  if (command === "TransactWriteItems") {
    const items = (input.TransactItems ?? []) as {
      Put?: { Item?: Record<string, unknown> };
      Update?: { Key?: Record<string, unknown> };
      Delete?: { Key?: Record<string, unknown> };
    }[];
    return items.flatMap((entry): WrittenItem[] =>
      entry.Put
        ? [{ item: entry.Put.Item }]
        : entry.Update
          ? [{ key: entry.Update.Key }]
          : entry.Delete
            ? [{ key: entry.Delete.Key }]
            : [],
    );
  }
  if (command === "PutItem") return [{ item: input.Item as Record<string, unknown> }];
  if (command === "UpdateItem" || command === "DeleteItem") return [{ key: input.Key as Record<string, unknown> }];
  return [];
}

/** Counts every call a context's client sends into `current()` (the running phase's counters). */
export function instrument(ctx: CoreContext, current: () => Counters): void {
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const counters = current();
      const name = String(context.commandName ?? "unknown").replace(/Command$/, "");
      counters.calls.set(name, (counters.calls.get(name) ?? 0) + 1);
      const input = args.input as Record<string, unknown>;
      if (isHeadRead(name, input)) counters.headReads += 1;
      try {
        const result = await next(args);
        countCall(counters.units, name, input, result.output as unknown as Record<string, unknown>, false);
        if (name === "TransactWriteItems") {
          counters.transactions += 1;
          counters.transactItems += (input.TransactItems as unknown[] | undefined)?.length ?? 0;
        }
        for (const written of writtenItems(name, input)) land(counters.landings, written);
        return result;
      } catch (error) {
        countCall(counters.units, name, input, undefined, true);
        if (name === "TransactWriteItems") {
          counters.cancelled += 1;
          const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
          // Distinct codes only: a batch's cancellation can fail dozens of items the same way.
          const label =
            [...new Set(reasons.map((reason) => reason.Code ?? "None").filter((code) => code !== "None"))].join("+") ||
            (error as Error).name;
          counters.cancelReasons.set(label, (counters.cancelReasons.get(label) ?? 0) + 1);
        }
        throw error;
      }
    },
    { step: "initialize", name: "benchCounter" },
  );
}

export interface Hotspot {
  partition: string;
  /** Item writes that landed on this table or index. */
  writes: number;
  /** The busiest keys, busiest first, with their share of `writes`. */
  top: { key: string; writes: number; share: number }[];
}

/** Per table and index, the busiest partition keys and their share of all its writes. */
export function hotspots(landings: Landings, keep = 2): Hotspot[] {
  return PARTITIONS.filter(({ name }) => landings.has(name)).map(({ name }) => {
    const keys = landings.get(name)!;
    const writes = [...keys.values()].reduce((sum, n) => sum + n, 0);
    const top = [...keys]
      .sort((a, b) => b[1] - a[1])
      .slice(0, keep)
      .map(([key, n]) => ({ key, writes: n, share: n / writes }));
    return { partition: name, writes, top };
  });
}

/** A key names its owner or account; the benchmark's ids are long and random, so shorten them. */
export const shortKey = (key: string) =>
  key.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => `${id.slice(0, 8)}…`);

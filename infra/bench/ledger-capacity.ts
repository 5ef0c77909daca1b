/**
 * What DynamoDB would bill for the calls the ledger benchmark makes, in request units, counted
 * from the requests and replies themselves (DynamoDB Local reports no capacity of its own that
 * could be trusted for this). The rules and their sources: docs/benchmarks.md#capacity-units.
 *
 * Item sizes follow the documented rules (attribute names + values; numbers by significant
 * digits; 3 bytes per list or map plus 1 per element). The one npm helper for this,
 * dyno-item-size, takes unmarshalled values only, misses the per-element byte and sets, and
 * throws on undefined, so the few lines are written here against AttributeValues.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { appTable } from "../resources/table";

/** Request units of one kind of work, summed over a phase. */
export interface CapacityUnits {
  /** Read request units: 1 per 4 KB strongly consistent, 0.5 eventually consistent. */
  read: number;
  /** Write request units on the table of committed writes: 2 per KB per item in a transaction, 1 outside. */
  write: number;
  /** Write request units on the global secondary indexes the written items populate. */
  index: number;
  /** Write request units of cancelled transactions and failed conditional writes. */
  cancelled: number;
}

export const newCapacityUnits = (): CapacityUnits => ({ read: 0, write: 0, index: 0, cancelled: 0 });

export const totalUnits = (units: CapacityUnits): number => units.read + units.write + units.index + units.cancelled;

const KB = 1024;
const READ_UNIT_BYTES = 4 * KB;
const TYPES = new Set(["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"]);

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

/** A number's size: 1 byte per two significant digits, plus 1. */
function numberSize(text: string): number {
  const digits = text
    .replace(/^[-+]/, "")
    .replace(/e[-+]?\d+$/i, "")
    .replace(".", "")
    .replace(/^0+/, "")
    .replace(/0+$/, "");
  return Math.ceil(Math.min(38, Math.max(1, digits.length)) / 2) + 1;
}

const binarySize = (value: Uint8Array | string) =>
  typeof value === "string" ? Buffer.from(value, "base64").length : value.byteLength;

/** The size of one attribute value (without its name). */
export function attributeValueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return binarySize(value.B);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, text) => sum + utf8(text), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, text) => sum + numberSize(text), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, bytes) => sum + binarySize(bytes), 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + attributeValueSize(element), 0);
  if (value.M !== undefined)
    return (
      3 +
      Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + attributeValueSize(element), 0)
    );
  return 0;
}

/** Whether an item is already in AttributeValue form (the raw client's) rather than plain (the document client's). */
function isMarshalled(item: Record<string, unknown>): item is Record<string, AttributeValue> {
  return Object.values(item).every((value) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return false;
    const keys = Object.keys(value);
    return keys.length === 1 && TYPES.has(keys[0]!);
  });
}

/** An item's size in bytes: the sum of its attribute names and values. */
export function itemSize(item: Record<string, unknown>): number {
  const marshalled = isMarshalled(item)
    ? item
    : (marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as Record<
        string,
        AttributeValue
      >);
  return Object.entries(marshalled).reduce((sum, [name, value]) => sum + utf8(name) + attributeValueSize(value), 0);
}

const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

/** The indexes an item appears in: those whose key attributes it carries. */
const indexesOf = (item: Record<string, unknown>) =>
  appTable.globalIndexes.filter((index) => item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined);

interface WriteAction {
  Put?: { Item?: Record<string, unknown> };
  Update?: {
    Key?: Record<string, unknown>;
    UpdateExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
  Delete?: { Key?: Record<string, unknown> };
  ConditionCheck?: { Key?: Record<string, unknown> };
}

/**
 * One written item's table units (per write) and index units. An Update's full item is not in
 * the request: it is counted by its key and new values (a floor), with a delete and a put on each
 * index whose key attributes it sets. A Delete or a ConditionCheck counts 1 unit.
 */
function writtenItem(action: WriteAction): { table: number; index: number } {
  if (action.Put?.Item) {
    const units = writeUnits(itemSize(action.Put.Item));
    return { table: units, index: units * indexesOf(action.Put.Item).length };
  }
  if (action.Update) {
    const {
      Key = {},
      UpdateExpression = "",
      ExpressionAttributeNames = {},
      ExpressionAttributeValues = {},
    } = action.Update;
    const units = writeUnits(itemSize(Key) + itemSize(ExpressionAttributeValues));
    const named = (attribute: string) =>
      new RegExp(`\\b${attribute}\\b`).test(UpdateExpression) ||
      Object.values(ExpressionAttributeNames).includes(attribute);
    const rekeyed = appTable.globalIndexes.filter((index) => named(index.partitionKey) || named(index.sortKey));
    return { table: units, index: 2 * units * rekeyed.length };
  }
  return { table: 1, index: 0 };
}

/** What a write call's items would cost: transactional items twice (prepare and commit). */
function writeCall(
  command: string,
  input: Record<string, unknown>,
): { actions: WriteAction[]; transactional: boolean } | null {
  switch (command) {
    case "TransactWriteItems":
      return { actions: (input.TransactItems ?? []) as WriteAction[], transactional: true };
    case "PutItem":
      return { actions: [{ Put: { Item: input.Item as Record<string, unknown> } }], transactional: false };
    case "UpdateItem":
      return { actions: [{ Update: input as WriteAction["Update"] }], transactional: false };
    case "DeleteItem":
      return { actions: [{ Delete: { Key: input.Key as Record<string, unknown> } }], transactional: false };
    case "BatchWriteItem": {
      const requests = Object.values((input.RequestItems ?? {}) as Record<string, WriteAction[]>).flat() as {
        PutRequest?: { Item?: Record<string, unknown> };
        DeleteRequest?: { Key?: Record<string, unknown> };
      }[];
      return {
        actions: requests.map((request) =>
          request.PutRequest ? { Put: request.PutRequest } : { Delete: request.DeleteRequest },
        ),
        transactional: false,
      };
    }
    default:
      return null;
  }
}

/** Read units of items read together (a Query or Scan): their sizes summed, then rounded up to 4 KB. */
const readUnits = (items: Record<string, unknown>[], consistent: boolean, perItem: boolean) => {
  const factor = consistent ? 1 : 0.5;
  if (perItem)
    return items.length === 0
      ? factor
      : items.reduce((sum, item) => sum + factor * Math.max(1, Math.ceil(itemSize(item) / READ_UNIT_BYTES)), 0);
  const bytes = items.reduce((sum, item) => sum + itemSize(item), 0);
  return factor * Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES));
};

/**
 * Adds one call's units to `units`. `output` is the reply (undefined when the call failed);
 * `failed` says whether it did. A cancelled transaction is billed its prepare phase, one write
 * per item at the standard rate, and writes nothing to any index; a failed conditional write is
 * billed as the write it tried.
 */
export function countCall(
  units: CapacityUnits,
  command: string,
  input: Record<string, unknown>,
  output: Record<string, unknown> | undefined,
  failed: boolean,
): void {
  const write = writeCall(command, input);
  if (write) {
    for (const action of write.actions) {
      const { table, index } = writtenItem(action);
      if (failed) units.cancelled += table;
      else {
        units.write += table * (write.transactional ? 2 : 1);
        units.index += index;
      }
    }
    return;
  }
  if (failed || !output) return;
  const consistent = input.ConsistentRead === true && input.IndexName === undefined;
  switch (command) {
    case "GetItem":
      units.read += readUnits(output.Item ? [output.Item as Record<string, unknown>] : [], consistent, true);
      return;
    case "Query":
    case "Scan":
      units.read += readUnits((output.Items ?? []) as Record<string, unknown>[], consistent, false);
      return;
    case "BatchGetItem": {
      const replies = Object.values((output.Responses ?? {}) as Record<string, Record<string, unknown>[]>).flat();
      const requested = Object.values((input.RequestItems ?? {}) as Record<string, { ConsistentRead?: boolean }>);
      units.read += readUnits(
        replies,
        requested.some((request) => request.ConsistentRead === true),
        true,
      );
      return;
    }
    case "TransactGetItems": {
      const replies = ((output.Responses ?? []) as { Item?: Record<string, unknown> }[]).flatMap((reply) =>
        reply.Item ? [reply.Item] : [],
      );
      units.read += 2 * readUnits(replies, true, true);
      return;
    }
    default:
      return;
  }
}

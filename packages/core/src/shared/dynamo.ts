import http from "node:http";
import https from "node:https";
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import type { AppConfig } from "./config";

/** Socket ceiling of the SDK's HTTP agent: DynamoDB has no connection pool, this is the closest thing. */
export const MAX_SOCKETS = 50;

export interface Database {
  doc: DynamoDBDocumentClient;
  raw: DynamoDBClient;
  table: string;
  agent: http.Agent;
}

/** DynamoDB Local accepts any credentials; real AWS uses the default provider chain. */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

/**
 * How long one store call may take. Without these a stalled endpoint holds a request for ever
 * (the SDK's default is no timeout). Worst case per call: maxAttempts x requestTimeoutMs plus
 * the SDK's short backoff, about 16 s, inside the API Lambda's 25 s limit, so a client gets a
 * 503 rather than a gateway timeout. Tests pass much shorter ones.
 */
export interface StoreTimeouts {
  /** Abandon a connection attempt after this long. */
  connectionTimeoutMs: number;
  /** Abandon a request (connect, send, reply) after this long; the SDK may then retry. */
  requestTimeoutMs: number;
  /** Total attempts per call, the first included. */
  maxAttempts: number;
}

export const DEFAULT_STORE_TIMEOUTS: StoreTimeouts = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 5_000,
  maxAttempts: 3,
};

/**
 * DynamoDB Local and the S3 emulator share a laptop or CI machine with everything else: a cold
 * JVM on a loaded 2-core box can take several seconds for one call. Locally there is no Lambda
 * limit to fit in, so the wait is longer; a stalled local store still answers 503, in about 40 s.
 */
export const LOCAL_STORE_TIMEOUTS: StoreTimeouts = {
  connectionTimeoutMs: 2_000,
  requestTimeoutMs: 20_000,
  maxAttempts: 2,
};

/** The timeouts for an endpoint: an explicit (local emulator) endpoint gets the local ones. */
export const storeTimeoutsFor = (endpoint: string | undefined): StoreTimeouts =>
  endpoint ? LOCAL_STORE_TIMEOUTS : DEFAULT_STORE_TIMEOUTS;

/** The SDK request handler both the DynamoDB and the S3 clients use, with the timeouts applied. */
export function timedRequestHandler(agent: http.Agent, plainHttp: boolean, timeouts: StoreTimeouts): NodeHttpHandler {
  return new NodeHttpHandler({
    ...(plainHttp ? { httpAgent: agent } : { httpsAgent: agent as https.Agent }),
    connectionTimeout: timeouts.connectionTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    // Without this the SDK only logs a warning when requestTimeout passes and keeps waiting.
    throwOnRequestTimeout: true,
  });
}

export function createDatabase(
  config: Pick<AppConfig, "TABLE_NAME" | "DYNAMODB_ENDPOINT" | "AWS_REGION">,
  timeouts: StoreTimeouts = storeTimeoutsFor(config.DYNAMODB_ENDPOINT),
): Database {
  const endpoint = config.DYNAMODB_ENDPOINT;
  const plainHttp = endpoint?.startsWith("http://") ?? false;
  const agent = plainHttp
    ? new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
    : new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const raw = new DynamoDBClient({
    region: config.AWS_REGION,
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
    requestHandler: timedRequestHandler(agent, plainHttp, timeouts),
    maxAttempts: timeouts.maxAttempts,
  });
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { doc, raw, table: config.TABLE_NAME, agent };
}

export interface ConnectionStats {
  max_open_connections: number;
  open_connections: number;
  in_use: number;
  idle: number;
}

/** Real figures of the agent's sockets: in use = carrying a request, idle = kept alive, free. */
export function connectionStats(agent: http.Agent): ConnectionStats {
  const count = (group: NodeJS.ReadOnlyDict<unknown[]>) =>
    Object.values(group).reduce((sum, list) => sum + (list?.length ?? 0), 0);
  const inUse = count(agent.sockets);
  const idle = count(agent.freeSockets);
  return { max_open_connections: agent.maxSockets, open_connections: inUse + idle, in_use: inUse, idle };
}

/** A real table call: proves the endpoint answers and the table exists. */
export async function describeTable(db: Database): Promise<{ status: string }> {
  const reply = await db.raw.send(new DescribeTableCommand({ TableName: db.table }));
  return { status: reply.Table?.TableStatus ?? "UNKNOWN" };
}

/** AWS errors by name, without importing every exception class. */
export function isAwsError(error: unknown, name: string): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === name;
}

/**
 * The per-item reason codes of a cancelled TransactWriteItems ("None", "ConditionalCheckFailed",
 * "TransactionConflict", ...), in the order the items were sent; null for any other error.
 */
export function cancellationCodes(error: unknown): string[] | null {
  if (!isAwsError(error, "TransactionCanceledException")) return null;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? "None");
}

/** Every item a query matches, following LastEvaluatedKey through all pages. */
export async function queryAll(
  db: Database,
  input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const reply = await db.doc.send(new QueryCommand({ ...input, TableName: db.table, ExclusiveStartKey: cursor }));
    items.push(...(reply.Items ?? []));
    cursor = reply.LastEvaluatedKey;
  } while (cursor);
  return items;
}

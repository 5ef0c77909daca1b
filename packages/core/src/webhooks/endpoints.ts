import { createHash, randomBytes } from "node:crypto";
import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { findUserById } from "../auth/users";
import { appLink } from "../mail/links";
import { PRODUCT_NAME, type MailMessage } from "../mail/model";
import { queueMail } from "../mail/outbox";
import type { CoreContext } from "../shared/context";
import { cancellationCodes, isAwsError, queryAll } from "../shared/dynamo";
import { conflict, notFound, serviceUnavailable, unprocessable } from "../shared/errors";
import { parseWith } from "../shared/validation";
import {
  enabledEndpointIndex,
  ENABLED_ENDPOINTS_PARTITION,
  endpointCountKey,
  endpointIdempotencyKey,
  endpointKey,
  endpointsByOwner,
  isEndpointId,
} from "./keys";
import {
  CreateWebhookEndpointInput,
  type DISABLED_REASONS,
  EVENT_TYPES,
  FAILING_DISABLE_AFTER_MS,
  MAX_ENDPOINTS_PER_USER,
  PREVIOUS_SECRET_VALID_MS,
  UpdateWebhookEndpointInput,
  WebhookEndpoint,
  type EventType,
  type WebhookSecretReveal,
} from "./model";
import { openSecret, sealSecret, secretHint } from "./secrets";
import { newSigningSecret } from "./signing";
import { validateEndpointUrl } from "./ssrf";

/**
 * Webhook endpoints and their signing secrets (docs/webhooks.md#endpoints-and-secrets): a user's
 * own HTTPS receivers, each subscribed to some event types, each with a secret shown once (at
 * creation and at rotation) and otherwise kept encrypted (secrets.ts). Every owner-facing function
 * takes the owner's id and treats another user's endpoint exactly like a missing one (404
 * webhook_endpoint_not_found), so an id reveals nothing. The dispatcher reads endpoints by id
 * (signingSecrets, recordAttemptOutcome) and by owner (endpointsOf, ownersWithEnabledEndpoints).
 *
 * Every change is a read, then a write conditioned on the version read, so a user's edit and the
 * dispatcher's outcome never overwrite each other.
 */

type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

export interface StoredEndpoint extends WebhookEndpoint {
  owner_id: string;
}

const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

/** The endpoint item: the public view, its owner, its sealed secrets and its version. */
const EndpointItem = WebhookEndpoint.extend({
  owner_id: z.string(),
  // A type dropped from the catalogue is dropped from the subscription rather than breaking the read.
  event_types: z
    .array(z.string())
    .transform((types) => types.filter((type): type is EventType => KNOWN_TYPES.has(type))),
  failing_since: z.string().nullable().default(null),
  secret_ciphertext: z.string(),
  secret_key_version: z.string(),
  previous_secret_ciphertext: z.string().nullable().default(null),
  previous_secret_key_version: z.string().nullable().default(null),
  version: z.number().int(),
});
type EndpointItem = z.infer<typeof EndpointItem>;

const view = (item: EndpointItem): WebhookEndpoint => WebhookEndpoint.parse(item);
const stored = (item: EndpointItem): StoredEndpoint => ({ ...view(item), owner_id: item.owner_id });

const NOT_FOUND_MESSAGE = "Webhook endpoint not found";
const endpointNotFound = () => notFound(NOT_FOUND_MESSAGE, "webhook_endpoint_not_found");

/** A version-conditioned write lost a race this many times in a row: answer 503 rather than loop. */
const WRITE_ATTEMPTS = 4;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const base32Of = (bytes: Buffer, length: number) =>
  Array.from(bytes.subarray(0, length), (byte) => BASE32[byte & 31]).join("");
/** `we_` + 26 base32 characters: random, or derived from (owner, Idempotency-Key). */
const newEndpointId = () => `we_${base32Of(randomBytes(26), 26)}`;
const hashOf = (...parts: string[]) => createHash("sha256").update(parts.join("\u0000")).digest();

/** The table item of an endpoint: its keys, the sparse enabled index while enabled, and its fields. */
function endpointItem(item: EndpointItem): Record<string, unknown> {
  return {
    ...endpointKey(item.id),
    ...endpointsByOwner(item.owner_id, item.created_at, item.id),
    ...(item.status === "enabled" ? enabledEndpointIndex(item.owner_id, item.id) : {}),
    entity: "webhook_endpoint",
    ...item,
  };
}

async function loadItem(ctx: CoreContext, endpointId: string): Promise<EndpointItem | null> {
  if (!isEndpointId(endpointId)) return null;
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: endpointKey(endpointId), ConsistentRead: true }),
  );
  return reply.Item ? EndpointItem.parse(reply.Item) : null;
}

async function ownedItem(ctx: CoreContext, ownerId: string, endpointId: string): Promise<EndpointItem> {
  const item = await loadItem(ctx, endpointId);
  if (!item || item.owner_id !== ownerId) throw endpointNotFound();
  return item;
}

/** The Put of `next` over the version `previous` was read at. */
const putOver = (ctx: CoreContext, previous: EndpointItem, next: EndpointItem) => ({
  TableName: ctx.db.table,
  Item: endpointItem({ ...next, version: previous.version + 1 }),
  ConditionExpression: "version = :version",
  ExpressionAttributeValues: { ":version": previous.version },
});

/**
 * Reads the endpoint and writes what `change` makes of it, again from a fresh read when another
 * write got in first. `change` returns null for "nothing to write", or the next state and any
 * transaction items that commit with it.
 */
async function changeEndpoint<T>(
  ctx: CoreContext,
  read: () => Promise<EndpointItem | null>,
  change: (
    item: EndpointItem | null,
  ) => { next: EndpointItem; with?: TransactItem[]; result: T } | { result: T; next?: undefined },
): Promise<T> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const item = await read();
    const planned = change(item);
    if (!planned.next || !item) return planned.result;
    try {
      const put = putOver(ctx, item, planned.next);
      if (planned.with?.length) {
        await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...planned.with] }));
      } else {
        await ctx.db.doc.send(new PutCommand(put));
      }
      return planned.result;
    } catch (error) {
      const codes = cancellationCodes(error);
      const lostRace =
        isAwsError(error, "ConditionalCheckFailedException") ||
        codes?.every((code) => code === "None" || code === "ConditionalCheckFailed" || code === "TransactionConflict");
      if (!lostRace) throw error;
    }
  }
  throw serviceUnavailable("The webhook endpoint is being changed by another request; try again");
}

/* ---------- the owner's endpoints ---------- */

async function ownerItems(ctx: CoreContext, ownerId: string): Promise<EndpointItem[]> {
  const items = await queryAll(ctx.db, {
    IndexName: "gsi1",
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": endpointsByOwner(ownerId).gsi1pk },
  });
  return items.map((item) => EndpointItem.parse(item));
}

/** The owner's endpoints, oldest first. */
export async function listEndpoints(ctx: CoreContext, ownerId: string): Promise<WebhookEndpoint[]> {
  return (await ownerItems(ctx, ownerId)).map(view);
}

/** The owner's endpoints with their owner, for the dispatcher. */
export async function endpointsOf(ctx: CoreContext, ownerId: string): Promise<StoredEndpoint[]> {
  return (await ownerItems(ctx, ownerId)).map(stored);
}

/** One of the owner's endpoints; an unknown, foreign or malformed id is a 404. */
export async function getEndpoint(ctx: CoreContext, ownerId: string, endpointId: string): Promise<WebhookEndpoint> {
  return view(await ownedItem(ctx, ownerId, endpointId));
}

/** Every owner with at least one enabled endpoint (the sparse index), for the dispatcher. */
export async function ownersWithEnabledEndpoints(ctx: CoreContext): Promise<string[]> {
  const items = await queryAll(ctx.db, {
    IndexName: "gsi3",
    KeyConditionExpression: "gsi3pk = :pk",
    ExpressionAttributeValues: { ":pk": ENABLED_ENDPOINTS_PARTITION },
    ProjectionExpression: "owner_id",
  });
  return [...new Set(items.map((item) => String(item.owner_id)))];
}

/* ---------- create ---------- */

/** Tries of a creation that meets another one by the same owner on the counter. */
const CREATE_ATTEMPTS = 8;

/** How long a creation's Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

const IdempotencyRecord = z.object({
  owner_id: z.string(),
  endpoint_id: z.string(),
  request_hash: z.string(),
  expires_at: z.number().int(),
});

export interface CreatedEndpoint extends WebhookSecretReveal {
  /** True when this is the reply to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

async function replayCreation(
  ctx: CoreContext,
  ownerId: string,
  keyHash: string,
  requestHash: string,
): Promise<CreatedEndpoint | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: endpointIdempotencyKey(keyHash), ConsistentRead: true }),
  );
  if (!reply.Item) return null;
  const record = IdempotencyRecord.parse(reply.Item);
  if (record.expires_at * 1000 <= ctx.clock().getTime()) return null;
  if (record.owner_id !== ownerId || record.request_hash !== requestHash)
    throw unprocessable("This Idempotency-Key was already used with a different request", "idempotency_key_reused");
  const item = await loadItem(ctx, record.endpoint_id);
  if (!item || item.owner_id !== ownerId)
    throw notFound("The endpoint this Idempotency-Key created has been deleted", "webhook_endpoint_not_found");
  return { endpoint: view(item), secret: openSecret(ctx.config, item.id, sealedCurrent(item)), replayed: true };
}

const sealedCurrent = (item: EndpointItem) => ({
  ciphertext: item.secret_ciphertext,
  key_version: item.secret_key_version,
});

/**
 * Registers an endpoint: the URL checked for target safety (ssrf.ts), at most
 * MAX_ENDPOINTS_PER_USER per owner (a counter in the same transaction holds the limit under
 * concurrent requests), and a new secret, returned here and never again. With an Idempotency-Key,
 * a retry of the same request within IDEMPOTENCY_TTL_MS answers the same endpoint and its secret.
 */
export async function createEndpoint(
  ctx: CoreContext,
  ownerId: string,
  input: z.input<typeof CreateWebhookEndpointInput>,
  idempotencyKey: string | null = null,
): Promise<CreatedEndpoint> {
  const fields = parseWith(CreateWebhookEndpointInput, input);
  const requestHash = hashOf(
    JSON.stringify([fields.url, fields.description, [...new Set(fields.event_types)].sort(), fields.enabled]),
  ).toString("hex");
  const keyHash = idempotencyKey ? hashOf(ownerId, idempotencyKey).toString("base64url") : null;
  if (keyHash) {
    const earlier = await replayCreation(ctx, ownerId, keyHash, requestHash);
    if (earlier) return earlier;
  }
  const url = await validateEndpointUrl(ctx, fields.url);
  const now = ctx.clock();
  const id = newEndpointId();
  const secret = newSigningSecret();
  const sealed = sealSecret(ctx.config, id, secret);
  const item: EndpointItem = {
    id,
    owner_id: ownerId,
    url: url.toString(),
    description: fields.description,
    event_types: [...new Set(fields.event_types)],
    status: fields.enabled ? "enabled" : "disabled",
    disabled_reason: fields.enabled ? null : "manual",
    disabled_at: fields.enabled ? null : now.toISOString(),
    failing_since: null,
    secret_hint: secretHint(secret),
    previous_secret_expires_at: null,
    secret_ciphertext: sealed.ciphertext,
    secret_key_version: sealed.key_version,
    previous_secret_ciphertext: null,
    previous_secret_key_version: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    version: 1,
  };
  const items: TransactItem[] = [
    {
      Update: {
        TableName: ctx.db.table,
        Key: endpointCountKey(ownerId),
        UpdateExpression: "SET endpoint_count = if_not_exists(endpoint_count, :zero) + :one, entity = :entity",
        ConditionExpression: "attribute_not_exists(endpoint_count) OR endpoint_count < :max",
        ExpressionAttributeValues: {
          ":zero": 0,
          ":one": 1,
          ":max": MAX_ENDPOINTS_PER_USER,
          ":entity": "webhook_endpoint_count",
        },
      },
    },
    {
      Put: { TableName: ctx.db.table, Item: endpointItem(item), ConditionExpression: "attribute_not_exists(pk)" },
    },
  ];
  if (keyHash) {
    items.push({
      Put: {
        TableName: ctx.db.table,
        Item: {
          ...endpointIdempotencyKey(keyHash),
          entity: "webhook_endpoint_idempotency",
          owner_id: ownerId,
          endpoint_id: id,
          request_hash: requestHash,
          expires_at: Math.ceil((now.getTime() + IDEMPOTENCY_TTL_MS) / 1000),
        },
        // An expired record (TTL removes it lazily) may be overwritten.
        ConditionExpression: "attribute_not_exists(pk) OR expires_at <= :now",
        ExpressionAttributeValues: { ":now": Math.floor(now.getTime() / 1000) },
      },
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: items }));
      break;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.[0] === "ConditionalCheckFailed")
        throw conflict(
          `You have ${MAX_ENDPOINTS_PER_USER} webhook endpoints, the most one user may have; delete one first`,
          "webhook_endpoint_limit",
        );
      if (keyHash && codes?.[2] === "ConditionalCheckFailed") {
        const earlier = await replayCreation(ctx, ownerId, keyHash, requestHash);
        if (earlier) return earlier;
      }
      // Concurrent creations by one owner meet on the counter: take turns, a little apart.
      if (!codes?.includes("TransactionConflict")) throw error;
      if (attempt >= CREATE_ATTEMPTS)
        throw serviceUnavailable("Too many endpoints are being created at once; try again");
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
    }
  }
  ctx.logger.info("webhook endpoint created", { owner_id: ownerId, endpoint_id: id, event_types: item.event_types });
  return { endpoint: view(item), secret, replayed: false };
}

/* ---------- change, rotate, delete ---------- */

/**
 * Changes an endpoint's URL (checked again), description, event types or enabled state. Enabling
 * clears a disabled reason and the failing streak; disabling records `manual`. A new URL starts a
 * new failing streak too: it is another receiver.
 */
export async function updateEndpoint(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  input: z.input<typeof UpdateWebhookEndpointInput>,
): Promise<WebhookEndpoint> {
  const fields = parseWith(UpdateWebhookEndpointInput, input);
  await ownedItem(ctx, ownerId, endpointId);
  const url = fields.url === undefined ? undefined : (await validateEndpointUrl(ctx, fields.url)).toString();
  return changeEndpoint(
    ctx,
    () => ownedItem(ctx, ownerId, endpointId),
    (item) => {
      const current = item!;
      const now = ctx.clock().toISOString();
      const next: EndpointItem = { ...current, updated_at: now };
      if (url !== undefined && url !== current.url) Object.assign(next, { url, failing_since: null });
      if (fields.description !== undefined) next.description = fields.description;
      if (fields.event_types !== undefined) next.event_types = [...new Set(fields.event_types)];
      if (fields.enabled === true && current.status === "disabled")
        Object.assign(next, { status: "enabled", disabled_reason: null, disabled_at: null, failing_since: null });
      if (fields.enabled === false && current.status === "enabled")
        Object.assign(next, { status: "disabled", disabled_reason: "manual", disabled_at: now });
      return { next, result: view(next) };
    },
  );
}

/**
 * A new secret becomes current and is shown once; the one it replaces keeps signing beside it
 * until PREVIOUS_SECRET_VALID_MS from now, so receivers can switch without losing a delivery.
 * Rotating again inside that window replaces the previous secret with the then-current one: only
 * the last two secrets are ever valid.
 */
export async function rotateEndpointSecret(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
): Promise<WebhookSecretReveal> {
  const secret = newSigningSecret();
  return changeEndpoint(
    ctx,
    () => ownedItem(ctx, ownerId, endpointId),
    (item) => {
      const current = item!;
      const now = ctx.clock();
      const sealed = sealSecret(ctx.config, current.id, secret);
      const next: EndpointItem = {
        ...current,
        secret_hint: secretHint(secret),
        secret_ciphertext: sealed.ciphertext,
        secret_key_version: sealed.key_version,
        previous_secret_ciphertext: current.secret_ciphertext,
        previous_secret_key_version: current.secret_key_version,
        previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString(),
        updated_at: now.toISOString(),
      };
      return { next, result: { endpoint: view(next), secret } };
    },
  );
}

/** Deletes one of the owner's endpoints; nothing is delivered to it any more. */
export async function deleteEndpoint(ctx: CoreContext, ownerId: string, endpointId: string): Promise<void> {
  await ownedItem(ctx, ownerId, endpointId);
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: ctx.db.table,
              Key: endpointKey(endpointId),
              ConditionExpression: "owner_id = :owner",
              ExpressionAttributeValues: { ":owner": ownerId },
            },
          },
          {
            Update: {
              TableName: ctx.db.table,
              Key: endpointCountKey(ownerId),
              UpdateExpression: "SET endpoint_count = endpoint_count - :one",
              ConditionExpression: "endpoint_count > :zero",
              ExpressionAttributeValues: { ":one": 1, ":zero": 0 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    // Deleted by a concurrent request: the same outcome.
    if (cancellationCodes(error)?.[0] === "ConditionalCheckFailed") throw endpointNotFound();
    throw error;
  }
  ctx.logger.info("webhook endpoint deleted", { owner_id: ownerId, endpoint_id: endpointId });
}

/* ---------- for the dispatcher ---------- */

/** The secrets to sign with, `whsec_...`: the current one first, the previous one while it is valid. */
export async function signingSecrets(ctx: CoreContext, endpointId: string): Promise<string[]> {
  const item = await loadItem(ctx, endpointId);
  if (!item) throw endpointNotFound();
  const secrets = [openSecret(ctx.config, item.id, sealedCurrent(item))];
  if (
    item.previous_secret_ciphertext &&
    item.previous_secret_key_version &&
    item.previous_secret_expires_at &&
    Date.parse(item.previous_secret_expires_at) > ctx.clock().getTime()
  )
    secrets.push(
      openSecret(ctx.config, item.id, {
        ciphertext: item.previous_secret_ciphertext,
        key_version: item.previous_secret_key_version,
      }),
    );
  return secrets;
}

type DisabledReason = (typeof DISABLED_REASONS)[number];

/** The mail that tells an owner the platform disabled one of their endpoints. */
export function endpointDisabledMail(
  to: string,
  endpoint: Pick<WebhookEndpoint, "url">,
  reason: Exclude<DisabledReason, "manual">,
  link: string,
): MailMessage {
  const why =
    reason === "gone"
      ? "Its receiver answered 410 Gone, which says it no longer wants deliveries."
      : `Every delivery to it has failed for ${FAILING_DISABLE_AFTER_MS / 86_400_000} days.`;
  return {
    kind: "webhook-endpoint-disabled",
    to,
    subject: `A ${PRODUCT_NAME} webhook endpoint was disabled`,
    text: [
      `We disabled your webhook endpoint ${endpoint.url}.`,
      why,
      "",
      "Events are no longer sent to it. When the receiver works again, enable the endpoint and replay what it missed:",
      link,
    ].join("\n"),
  };
}

/**
 * What one delivery attempt says about the endpoint. A success ends a failing streak; a failure
 * starts one (or continues it). A 410 disables the endpoint (`gone`), and so does a streak older
 * than FAILING_DISABLE_AFTER_MS (`failing`); either way its owner gets a mail, queued in the same
 * transaction, and the endpoint shows its status and reason in the app.
 */
export async function recordAttemptOutcome(
  ctx: CoreContext,
  endpointId: string,
  outcome: { ok: boolean; gone: boolean; at: Date },
): Promise<{ disabled: boolean }> {
  const at = outcome.at.toISOString();
  /** Why this failure disables the endpoint, if it does. */
  const disablingReason = (item: EndpointItem): Exclude<DisabledReason, "manual"> | null => {
    if (outcome.ok) return null;
    if (outcome.gone) return "gone";
    const failingSince = Date.parse(item.failing_since ?? at);
    return outcome.at.getTime() - failingSince >= FAILING_DISABLE_AFTER_MS ? "failing" : null;
  };
  // The owner's address is read only when the mail is about to be queued.
  let email: string | undefined;
  let disabledNow: DisabledReason | null = null;
  const result = await changeEndpoint(
    ctx,
    async () => {
      const item = await loadItem(ctx, endpointId);
      if (item && email === undefined && item.status === "enabled" && disablingReason(item))
        email = (await findUserById(ctx.db, item.owner_id))?.email ?? "";
      return item;
    },
    (item) => {
      disabledNow = null;
      if (!item || item.status === "disabled") return { result: { disabled: true } };
      if (outcome.ok)
        return item.failing_since === null
          ? { result: { disabled: false } }
          : { next: { ...item, failing_since: null }, result: { disabled: false } };
      const reason = disablingReason(item);
      if (reason === null)
        return item.failing_since === null
          ? { next: { ...item, failing_since: at }, result: { disabled: false } }
          : { result: { disabled: false } };
      const next: EndpointItem = {
        ...item,
        status: "disabled",
        disabled_reason: reason,
        disabled_at: at,
        failing_since: item.failing_since ?? at,
        updated_at: at,
      };
      const link = appLink(ctx.config, "/developers/webhooks", { endpoint: item.id });
      disabledNow = reason;
      return {
        next,
        with: email ? [queueMail(ctx, endpointDisabledMail(email, item, reason, link))] : [],
        result: { disabled: true },
      };
    },
  );
  if (disabledNow) ctx.logger.warn("webhook endpoint disabled", { endpoint_id: endpointId, reason: disabledNow });
  return result;
}

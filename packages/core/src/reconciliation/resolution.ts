import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, conflict, notFound, unprocessable } from "../shared/errors";
import { requestHash } from "../ledger/journals";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import type { TransactItems } from "../ledger/write-path";
import { bookJournal, isEmpty, reconJournalId, voidDraft, type Deltas } from "./journals";
import { missingLineBreakId, parseBreakId, positionKey, suspenseKey } from "./keys";
import { RECON_MESSAGES, type BreakHistoryEntry, type ReopenBreakInput, type ResolveBreakInput } from "./model";
import { counterAdd } from "./reconcile";
import { breakItem, loadBreak, type StoredBreak } from "./store";

/**
 * Resolving breaks by hand (docs/money-operations.md#reconciliation): match, write off, reopen.
 * Each action is one journal (none when it moves nothing) whose post commits the break's new
 * state under the version the admin acted on (409 when it moved), the clearing and suspense
 * counters, and an audit entry (who, when, note, journal). A reopen posts the reverse of the
 * resolution's journal. An Idempotency-Key is remembered on the break: the same key and body
 * again answers the break as it is and changes nothing; the same key with another body is a 422.
 */

export interface Actor {
  userId: string;
  email: string;
}

type Resolution = NonNullable<StoredBreak["resolution"]> & { deltas?: Deltas; key?: string | null; hash?: string };

const keyOf = (history: BreakHistoryEntry[], key: string) =>
  (history as (BreakHistoryEntry & { idempotency_key?: string; request_hash?: string })[]).find(
    (entry) => entry.idempotency_key === key,
  );

async function requireBreak(ctx: CoreContext, id: string): Promise<StoredBreak> {
  const parsed = parseBreakId(id);
  const found = parsed ? await loadBreak(ctx, id, parsed.date) : null;
  if (!found) throw notFound(RECON_MESSAGES.breakNotFound, "break_not_found");
  return found;
}

/** The earlier answer under this key, or null when the key is new. */
function replayed(stored: StoredBreak, idempotencyKey: string | undefined, hash: string): StoredBreak | null {
  if (!idempotencyKey) return null;
  const earlier = keyOf(stored.history, idempotencyKey) as { request_hash?: string } | undefined;
  if (!earlier) return null;
  if (earlier.request_hash !== hash)
    throw unprocessable(
      "This Idempotency-Key was already used with a different request body",
      "idempotency_key_reused",
    );
  return stored;
}

interface Plan {
  deltas: Deltas;
  clearingMinor: number;
  target: StoredBreak | null;
  reference: string | null;
  paymentId: string | null;
}

async function planResolution(ctx: CoreContext, stored: StoredBreak, input: ResolveBreakInput): Promise<Plan> {
  const s = stored.suspense_minor;
  if (input.action === "write_off") {
    if (stored.class === "missing_from_file") {
      const ledger = stored.ledger_amount_minor ?? 0;
      return {
        deltas: { clearing: -ledger, writeoffs: ledger },
        clearingMinor: ledger,
        target: null,
        reference: null,
        paymentId: null,
      };
    }
    return { deltas: { suspense: s, writeoffs: -s }, clearingMinor: 0, target: null, reference: null, paymentId: null };
  }
  if (stored.class === "missing_file") throw unprocessable(RECON_MESSAGES.missingFileMatch, "not_matchable");
  if (stored.class === "fee_mismatch") throw unprocessable(RECON_MESSAGES.nothingToMatch, "not_matchable");
  const own =
    input.reference === stored.reference &&
    (stored.class === "amount_mismatch" || stored.class === "missing_from_file");
  let target: StoredBreak | null = null;
  let ledger: number;
  let paymentId: string | null;
  if (own) {
    ledger = Math.abs(stored.ledger_amount_minor ?? 0);
    paymentId = stored.payment_id;
  } else {
    target = stored.file_id
      ? await loadBreak(ctx, missingLineBreakId(stored.file_id, input.reference), stored.date)
      : null;
    if (target?.status !== "open" || target.class !== "missing_from_file")
      throw unprocessable(RECON_MESSAGES.referenceNotFound, "reference_not_found");
    if (target.currency !== stored.currency)
      throw unprocessable(RECON_MESSAGES.referenceCurrency, "reference_currency");
    ledger = target.ledger_amount_minor ?? 0;
    paymentId = target.payment_id;
  }
  const deltas: Deltas =
    stored.class === "missing_from_file"
      ? { clearing: -ledger, railsettled: ledger }
      : { suspense: s, clearing: -ledger, writeoffs: ledger - s };
  return { deltas, clearingMinor: ledger, target, reference: input.reference, paymentId };
}

const negate = (deltas: Deltas): Deltas =>
  Object.fromEntries(Object.entries(deltas).map(([code, amount]) => [code, -(amount ?? 0)])) as Deltas;

function updatePut(ctx: CoreContext, next: StoredBreak, seenVersion: number) {
  return {
    Put: {
      TableName: ctx.db.table,
      Item: breakItem(next),
      ConditionExpression: "version = :seen",
      ExpressionAttributeValues: { ":seen": seenVersion },
    },
  };
}

/** Books `deltas` (if any) and commits `items` with its post; a lost version race is a 409. */
async function commit(
  ctx: CoreContext,
  stored: StoredBreak,
  journalKey: string,
  deltas: Deltas,
  items: (at: string) => TransactItems,
  description: string,
  actor: Actor,
): Promise<string | null> {
  const at = ctx.clock().toISOString();
  const currency = stored.currency;
  try {
    if (currency && !isEmpty(deltas)) {
      return await bookJournal(
        ctx,
        { key: journalKey, currency, deltas, description, actor: { id: actor.userId, name: actor.email } },
        items(at),
      );
    }
    await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: items(at) }));
    return null;
  } catch (error) {
    if (error instanceof ExtraItemsRefused || cancellationCodes(error)?.includes("ConditionalCheckFailed")) {
      if (currency && !isEmpty(deltas)) await voidDraft(ctx, reconJournalId(journalKey), journalKey);
      throw conflict(RECON_MESSAGES.versionConflict, "version_conflict");
    }
    if (error instanceof AppError && error.status === 409)
      throw conflict(RECON_MESSAGES.versionConflict, "version_conflict");
    throw error;
  }
}

export async function resolveBreak(
  ctx: CoreContext,
  actor: Actor,
  id: string,
  input: ResolveBreakInput,
  idempotencyKey?: string,
): Promise<StoredBreak> {
  const stored = await requireBreak(ctx, id);
  const hash = requestHash({ op: "resolve", input });
  const replay = replayed(stored, idempotencyKey, hash);
  if (replay) return replay;
  if (stored.status !== "open") throw conflict(RECON_MESSAGES.alreadyResolved, "already_resolved");
  const plan = await planResolution(ctx, stored, input);
  const journalKey = `recon:${stored.id}:v${stored.version}:${input.action}`;
  const journalId = stored.currency && !isEmpty(plan.deltas) ? reconJournalId(journalKey) : null;
  const build = (at: string): TransactItems => {
    const entry = {
      action: input.action,
      by: actor.email,
      at,
      note: input.note,
      journalId,
      version: stored.version + 1,
      ...(idempotencyKey ? { idempotency_key: idempotencyKey, request_hash: hash } : {}),
    };
    const resolution: Resolution = {
      action: input.action,
      by: actor.email,
      at,
      note: input.note,
      reference: plan.reference,
      paymentId: plan.paymentId,
      journalId,
      clearing_minor: plan.clearingMinor,
      also_resolved: plan.target?.id ?? null,
      deltas: plan.deltas,
    };
    const next: StoredBreak = {
      ...stored,
      status: "resolved",
      resolution,
      history: [...stored.history, entry],
      version: stored.version + 1,
      committed_at: at,
    };
    const items: TransactItems = [updatePut(ctx, next, stored.version)];
    if (plan.target) {
      const target = plan.target;
      items.push(
        updatePut(
          ctx,
          {
            ...target,
            status: "resolved",
            resolution: { ...resolution, also_resolved: stored.id, clearing_minor: 0, deltas: {} } as Resolution,
            history: [...target.history, { ...entry, version: target.version + 1 }],
            version: target.version + 1,
            committed_at: at,
          },
          target.version,
        ),
      );
    }
    return [
      ...items,
      ...counterItems(ctx, stored, plan.target ?? stored, plan.clearingMinor, -stored.suspense_minor, at),
    ];
  };
  await commit(
    ctx,
    stored,
    journalKey,
    plan.deltas,
    build,
    `Break ${stored.id}: ${input.action.replace("_", " ")}`,
    actor,
  );
  return requireBreak(ctx, id);
}

/** The clearing position's resolved counter and the open suspense counter, moved by a resolution. */
function counterItems(
  ctx: CoreContext,
  stored: StoredBreak,
  attemptBreak: StoredBreak,
  clearingMinor: number,
  suspenseMinor: number,
  at: string,
): TransactItems {
  const items: TransactItems = [];
  if (!stored.currency) return items;
  if (clearingMinor !== 0)
    items.push(
      counterAdd(
        ctx,
        positionKey(attemptBreak.date, attemptBreak.rail_id, stored.currency),
        { resolved_minor: clearingMinor },
        at,
        {
          rail_id: attemptBreak.rail_id,
          rail: attemptBreak.rail,
          date: attemptBreak.date,
          currency: stored.currency,
        },
      ),
    );
  if (suspenseMinor !== 0) items.push(counterAdd(ctx, suspenseKey(stored.currency), { open_minor: suspenseMinor }, at));
  return items;
}

export async function reopenBreak(
  ctx: CoreContext,
  actor: Actor,
  id: string,
  input: ReopenBreakInput,
  idempotencyKey?: string,
): Promise<StoredBreak> {
  const stored = await requireBreak(ctx, id);
  const hash = requestHash({ op: "reopen", input });
  const replay = replayed(stored, idempotencyKey, hash);
  if (replay) return replay;
  const resolution = stored.resolution as Resolution | null;
  if (stored.status !== "resolved" || !resolution) throw conflict(RECON_MESSAGES.notResolved, "not_resolved");
  // A break resolved as the partner of another one's match is reopened through that one.
  const owner =
    resolution.deltas && isEmpty(resolution.deltas) && resolution.also_resolved
      ? await requireBreak(ctx, resolution.also_resolved)
      : null;
  if (owner?.resolution && (owner.resolution as Resolution).also_resolved === stored.id && owner.status === "resolved")
    return reopenBreak(ctx, actor, owner.id, input, idempotencyKey).then(() => requireBreak(ctx, id));
  const deltas = negate(resolution.deltas ?? {});
  const journalKey = `recon:${stored.id}:v${stored.version}:reopen`;
  const journalId = stored.currency && !isEmpty(deltas) ? reconJournalId(journalKey) : null;
  const partner = resolution.also_resolved ? await loadBreak(ctx, resolution.also_resolved, stored.date) : null;
  const build = (at: string): TransactItems => {
    const entry = {
      action: "reopen" as const,
      by: actor.email,
      at,
      note: input.note,
      journalId,
      version: stored.version + 1,
      ...(idempotencyKey ? { idempotency_key: idempotencyKey, request_hash: hash } : {}),
    };
    const items: TransactItems = [
      updatePut(
        ctx,
        {
          ...stored,
          status: "open",
          resolution: null,
          history: [...stored.history, entry],
          version: stored.version + 1,
          committed_at: at,
        },
        stored.version,
      ),
    ];
    if (partner && partner.status === "resolved")
      items.push(
        updatePut(
          ctx,
          {
            ...partner,
            status: "open",
            resolution: null,
            history: [...partner.history, { ...entry, version: partner.version + 1 }],
            version: partner.version + 1,
            committed_at: at,
          },
          partner.version,
        ),
      );
    return [
      ...items,
      ...counterItems(ctx, stored, partner ?? stored, -resolution.clearing_minor, stored.suspense_minor, at),
    ];
  };
  await commit(ctx, stored, journalKey, deltas, build, `Break ${stored.id}: reopened`, actor);
  return requireBreak(ctx, id);
}

import { createHash } from "node:crypto";
import { z } from "zod";
import { newId } from "../shared/ids";
import { Currency } from "../money/model";
import type { Account } from "./accounts";
import { JOURNAL_STATUSES, JOURNAL_TYPES, type JournalType, type Side } from "./model";

/**
 * A journal as stored (its entries, status history and idempotency fields), the draft a write
 * starts from, and how a client's Idempotency-Key names a journal.
 */

export const JournalEntry = z.object({
  account_id: z.string(),
  account_name: z.string(),
  side: z.enum(["debit", "credit"]),
  amount: z.number().int().positive(),
  /** Stored because the Transactions tab shows them; older journal items lack both (filled on read). */
  account_number: z.string().nullable().optional(),
  owned: z.boolean().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** Who changed a journal: the user's id and name at that time. */
export const Actor = z.object({ id: z.string(), name: z.string() });
export type Actor = z.infer<typeof Actor>;

const HistoryRecord = z.object({
  operation: z.enum(["create", "post", "unpost", "void"]),
  status: z.enum(JOURNAL_STATUSES),
  at: z.string(),
  /** null on older records that kept no actor, and for writes without a user (seeds, benchmarks). */
  by: Actor.nullable().default(null),
});
const StoredReply = z.object({ hash: z.string(), reply: z.string() });

export const Journal = z.object({
  id: z.string(),
  owner_id: z.string(),
  type: z.enum(JOURNAL_TYPES),
  status: z.enum(JOURNAL_STATUSES),
  currency: Currency,
  total_amount: z.number().int().positive(),
  description: z.string(),
  entries: z.array(JournalEntry),
  created_at: z.string(),
  posted_at: z.string().nullable(),
  version: z.number().int(),
  /** Every status change, in order: unposting is recorded, never erased. */
  history: z.array(HistoryRecord),
  idempotency_key: z.string().nullable(),
  request_hash: z.string(),
  /** The original reply to the create request, returned byte for byte on a replay. */
  created_reply: z.string(),
  /**
   * Replies to keyed post/unpost requests on older journal items. Kept here, they would grow the
   * item with every keyed call until it passed DynamoDB's 400 KB item limit, so they are read (so
   * that those keys replay) and never written; records are OPKEY# items beside the journal.
   */
  operation_replies: z.record(z.string(), StoredReply).default({}),
  /**
   * The other customer whose account the journal pays into (a payment to another user); absent
   * when the journal touches only its owner's and system accounts. While the journal is posted it
   * is listed in that customer's history too (journalsReceivedBy).
   */
  payee_owner_id: z.string().nullable().optional(),
  /** What the payee sees of the payer: their display name when the journal was written. */
  payer_name: z.string().optional(),
  /** What the payer sees of the payee: the address they paid, the masked beneficiary, or their own account. */
  payee_label: z.string().optional(),
});
export type Journal = z.infer<typeof Journal>;

const SYSTEM_ACCOUNT_PREFIX = "sys-";
export const isSystemAccountId = (accountId: string): boolean => accountId.startsWith(SYSTEM_ACCOUNT_PREFIX);

/** Who posts a payment's journal when it completes: no person, the payment worker. */
export const PAYMENT_SERVICE_ACTOR: Actor = { id: "payment-service", name: "the payment service" };
/** What a payee sees of a payer whose journal recorded no name (an older journal item). */
export const UNNAMED_PAYER = "Another customer";

/** A client's Idempotency-Key names the journal: the same key always maps to the same id. */
export function journalIdFor(ownerId: string, idempotencyKey: string | null): string {
  if (!idempotencyKey) return newId();
  const hex = createHash("sha256").update(`${ownerId}\u0000${idempotencyKey}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function requestHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

export interface Idempotency {
  key: string | null;
  hash: string;
}

export interface JournalDraft {
  type: JournalType;
  ownerId: string;
  currency: Currency;
  description: string;
  /** Every leg with its resolved account; they must balance. */
  legs: { account: Account; side: Side; amount: number }[];
  /** The user making the request, recorded in the history; null when there is none. */
  actor: Actor | null;
  /**
   * How the two sides of a payment name each other: the payer's display name (shown to a payee
   * on the platform) and the payee as the payer knows it (an address, a masked beneficiary).
   */
  parties?: { payerName: string; payeeLabel: string };
}

export class JournalReplay {
  constructor(readonly body: string) {}
}

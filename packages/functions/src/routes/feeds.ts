import { z } from "zod";
import { kycStreamMessage } from "@fintech/core/kyc/events";
import { KYC_EVENT_TYPES } from "@fintech/core/kyc/model";
import {
  AccountLockedEvent,
  AccountUnlockedEvent,
  BalanceUpdateEvent,
  isLedgerId,
  JOURNAL_STATUSES,
  LowBalanceAlertEvent,
  ReconciliationResultEvent,
  TransactionCreatedEvent,
  TransactionStatusUpdateEvent,
} from "@fintech/core/ledger/model";
import { paymentStreamMessage } from "@fintech/core/payments/events";
import { PAYMENT_EVENT_TYPES, PAYMENT_STATUSES, type PaymentStatus } from "@fintech/core/payments/model";
import { KYC_FEED_PATH, LEDGER_FEED_PATH, PAYMENT_FEED_PATH } from "@fintech/core/events/feed-paths";

/**
 * What the single feeds (ledger-feed.ts, kyc-feed.ts, payment-feed.ts) and the commands beside
 * them (*-commands.ts) share: the filters a subscription is made of and the URL that carries them
 * (on the feed's path, core/events/feed-paths.ts), and the events each feed sends, by name, with the schema of
 * each one's data (the live feed carries them too, as `<scope>.<name>`). Kept apart from both so
 * that a feed never loads the commands, nor the commands the feed.
 */

/** What every event's data carries beside its own fields (docs/webhooks.md#event-ids). */
const EventIdentity = z.object({
  id: z
    .string()
    .describe(
      "The event's stable id: the same on every connection, in the webhook (`webhook-id`) and in GET /api/v1/events. The SSE `id:` is the resume cursor, not this.",
    ),
  created_at: z.string().describe("When the change that announced the event committed (ISO 8601)"),
});
const identified = <S extends z.ZodObject>(schema: S) => schema.extend(EventIdentity.shape);

/* ---------- ledger ---------- */

const MAX_FILTER_ACCOUNTS = 50;

/** A list given as "a,b" or as an array (commands take arrays, URLs take commas). */
const listOf = <S extends z.ZodType>(item: S, max: number, name: string) =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z.array(item, { error: `${name} must be a list` }).max(max, `${name} may list at most ${max} values`),
  );

export const AccountIdList = listOf(
  z.string().refine(isLedgerId, "accountIds must be account ids"),
  MAX_FILTER_ACCOUNTS,
  "accountIds",
);
export const StatusList = listOf(
  z.preprocess(
    (value) => (typeof value === "string" ? value.toLowerCase() : value),
    z.enum(JOURNAL_STATUSES, { error: `statusFilter values must be ${JOURNAL_STATUSES.join(" or ")}` }),
  ),
  JOURNAL_STATUSES.length,
  "statusFilter",
);
export const IncludeTransactionsFlag = z.preprocess(
  (value) => (typeof value === "boolean" ? String(value) : value),
  z.enum(["true", "false"], { error: "includeTransactions must be true or false" }),
);

/** A ledger subscription: whose feed, and the filters of the stream's query. */
export interface LedgerSubscription {
  userId: string;
  accountIds?: string[];
  statusFilter?: (typeof JOURNAL_STATUSES)[number][];
  includeTransactions?: "true" | "false";
}

export function ledgerFeedUrl(query: LedgerSubscription): string {
  const params = new URLSearchParams({ userId: query.userId });
  if (query.accountIds?.length) params.set("accountIds", query.accountIds.join(","));
  if (query.statusFilter?.length) params.set("statusFilter", query.statusFilter.join(","));
  if (query.includeTransactions) params.set("includeTransactions", query.includeTransactions);
  return `${LEDGER_FEED_PATH}?${params.toString()}`;
}

export const LEDGER_FEED_EVENTS = {
  balanceUpdate: { name: "BalanceUpdateEvent", schema: identified(BalanceUpdateEvent) },
  transactionCreated: { name: "TransactionCreatedEvent", schema: identified(TransactionCreatedEvent) },
  transactionStatusUpdate: { name: "TransactionStatusUpdateEvent", schema: identified(TransactionStatusUpdateEvent) },
  reconciliationResult: { name: "ReconciliationResultEvent", schema: identified(ReconciliationResultEvent) },
  lowBalanceAlert: { name: "LowBalanceAlertEvent", schema: identified(LowBalanceAlertEvent) },
  accountLocked: { name: "AccountLockedEvent", schema: identified(AccountLockedEvent) },
  accountUnlocked: { name: "AccountUnlockedEvent", schema: identified(AccountUnlockedEvent) },
};

/* ---------- KYC ---------- */

export const KycUserId = z.string().min(1, "userId is not valid").max(64, "userId is not valid");

export function kycFeedUrl(
  owner: string,
  query: { includeRiskUpdates?: "true" | "false"; lastEventId?: string },
): string {
  const params = new URLSearchParams({ userId: owner });
  if (query.includeRiskUpdates === "false") params.set("includeRiskUpdates", "false");
  if (query.lastEventId) params.set("lastEventId", query.lastEventId);
  return `${KYC_FEED_PATH}?${params.toString()}`;
}

export const KYC_FEED_EVENTS = Object.fromEntries(
  KYC_EVENT_TYPES.map((type) => [
    type,
    { name: `Kyc${type[0]!.toUpperCase()}${type.slice(1)}Event`, schema: identified(kycStreamMessage(type)) },
  ]),
);

/* ---------- payments ---------- */

export const PaymentUserId = z
  .string({ error: "userId is not valid" })
  .min(1, "userId is not valid")
  .max(64, "userId is not valid");
const STATUS_FILTER_MESSAGE = `status filters must be ${PAYMENT_STATUSES.join(", ")} (any case)`;
/** Repeats beyond this are refused: five statuses exist, a longer list is not a real filter. */
const MAX_STATUS_VALUES = 16;

/**
 * A status filter as given: repeated (`status_filter=PENDING&status_filter=PROCESSING`, as the
 * product's client sends it: docs/product/payments.md#payment-events), comma-separated, or an
 * array (commands); any case. Empty: no filter.
 */
export const PaymentStatusFilter = z.preprocess(
  (value) => {
    const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((part) =>
      typeof part === "string"
        ? part
            .split(",")
            .map((text) => text.trim().toLowerCase())
            .filter(Boolean)
        : [part],
    );
    return parts;
  },
  z
    .array(z.enum(PAYMENT_STATUSES, { error: STATUS_FILTER_MESSAGE }), { error: STATUS_FILTER_MESSAGE })
    .max(MAX_STATUS_VALUES, `Give at most ${MAX_STATUS_VALUES} status filters`)
    .transform((statuses) => [...new Set(statuses)]),
);

/** What one payment stream delivers: whose payments, and which statuses (none: all). */
export interface PaymentSubscription {
  owner: string;
  statuses: PaymentStatus[];
}

export function paymentFeedUrl({ owner, statuses }: PaymentSubscription): string {
  const params = new URLSearchParams({ userId: owner });
  if (statuses.length > 0) params.set("statusFilter", statuses.join(","));
  return `${PAYMENT_FEED_PATH}?${params.toString()}`;
}

export const PAYMENT_FEED_EVENTS = Object.fromEntries(
  PAYMENT_EVENT_TYPES.map((type) => [
    type,
    { name: `Payment${type[0]!.toUpperCase()}${type.slice(1)}Event`, schema: identified(paymentStreamMessage(type)) },
  ]),
);

import { EVENT_TYPES, type EVENT_TYPES_BY_FEED, feedOfEventType, type EventFeed, type EventType } from "./model";

/** Each feed's own names only (EventType pairs every feed with every name). */
type CatalogueType = { [F in EventFeed]: `${F}.${(typeof EVENT_TYPES_BY_FEED)[F][number]}` }[EventFeed];

/**
 * What each event type announces, in a sentence: the catalogue `GET /api/v1/webhooks/event-types`
 * lists and the webhooks screen shows. Data, beside the types in model.ts; a type added there
 * needs its sentence here (the type checker asks for it). Browser-safe.
 */
export const EVENT_TYPE_DESCRIPTIONS: Record<CatalogueType, string> = {
  "ledger.balanceUpdate": "An account's balance changed.",
  "ledger.transactionCreated": "A transaction was booked on one of your accounts.",
  "ledger.transactionStatusUpdate": "A transaction was posted, unposted or otherwise changed status.",
  "ledger.lowBalanceAlert": "An account's available balance fell below its low-balance threshold.",
  "ledger.reconciliationResult": "An account's balance was checked against its journal, with the result.",
  "ledger.accountLocked": "An account was locked: it takes no debits until it is unlocked.",
  "ledger.accountUnlocked": "A locked account was unlocked.",
  "kyc.verificationStarted": "An identity verification was started.",
  "kyc.documentUploaded": "A document was uploaded to a verification.",
  "kyc.documentVerified": "A document of a verification was checked.",
  "kyc.riskAssessmentUpdate": "A verification's risk score or level changed.",
  "kyc.verificationCompleted": "A verification was approved or rejected.",
  "kyc.complianceAlert": "A verification raised a compliance alert (for example a watchlist match).",
  "payment.paymentInitiated": "A payment was created.",
  "payment.paymentStatusUpdate": "A payment moved to another step of its lifecycle.",
  "payment.paymentCompleted": "A payment completed.",
  "payment.paymentError": "A payment failed, with the reason.",
};

export interface EventTypeEntry {
  type: EventType;
  feed: EventFeed;
  description: string;
}

/** Every event type with its feed and description, in the catalogue's order. */
export const eventTypeCatalogue = (): EventTypeEntry[] =>
  EVENT_TYPES.map((type) => ({
    type,
    feed: feedOfEventType(type),
    description: EVENT_TYPE_DESCRIPTIONS[type as CatalogueType],
  }));

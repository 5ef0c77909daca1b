import type { WebhookDelivery } from "@fintech/core/webhooks/model";

/**
 * The streaming demo's view of what arrives (docs/webhooks.md#the-streaming-demo-and-the-test-suite):
 * each event of the live stream's ledger, kyc and payment scopes, and each webhook delivery of the
 * user's endpoints, as one of the demo's four types (payment, risk, reconciliation, webhook) with a
 * status (info, success, warning, error) and a line of words. Pure: the screen feeds it what came.
 */

export const DEMO_EVENT_TYPES = ["payment", "risk", "reconciliation", "webhook"] as const;
export type DemoEventType = (typeof DEMO_EVENT_TYPES)[number];

export const DEMO_STATUSES = ["info", "success", "warning", "error"] as const;
export type DemoStatus = (typeof DEMO_STATUSES)[number];

/** The live stream's scopes the demo follows. */
export const DEMO_SCOPES = ["ledger", "kyc", "payment"] as const;
export type DemoScope = (typeof DEMO_SCOPES)[number];

/** One event as it came off the stream: its scope and name, its fields, and its stable id and commit time when sent. */
export interface StreamEvent {
  scope: DemoScope;
  name: string;
  payload: Record<string, unknown>;
  /** The event's stable id (the same on every connection, webhook and the events list); null when the server sent none. */
  id: string | null;
  /** When the event was committed (ISO), or null. */
  createdAt: string | null;
}

/** What the demo makes of an event. */
export interface Classified {
  type: DemoEventType;
  status: DemoStatus;
  title: string;
  detail: string;
  /** The payment the event is about, and how it ended when it says so. */
  payment?: { id: string; outcome: "completed" | "failed" | null };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const MAX_ID_LENGTH = 200;
const boundedText = (value: unknown): string | null =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH ? value : null;

/**
 * One SSE message of a scope as a StreamEvent, or null when its data is not a JSON object. The
 * ledger sends its fields flat, KYC and payments wrap them as `{event: {<name>: {...}}}`; the
 * stable `id` and `created_at` sit at the top (a ledger event's `at` stands in for `created_at`).
 */
export function readStreamEvent(scope: DemoScope, name: string, data: string): StreamEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const wrapped = isRecord(parsed.event) && isRecord(parsed.event[name]) ? parsed.event[name] : null;
  return {
    scope,
    name,
    payload: wrapped ?? parsed,
    id: boundedText(parsed.id),
    createdAt: boundedText(parsed.created_at) ?? boundedText(parsed.at),
  };
}

const PAYMENT_STATUS_WORDS: Record<string, string> = {
  pending: "pending",
  processing: "processing",
  completed: "completed",
  failed: "failed",
  parked: "parked for review after repeated errors",
  held_for_review: "held for review by screening",
  awaiting_approval: "awaiting a second approval",
};

function classifyPayment(name: string, payload: Record<string, unknown>): Classified {
  const id = text(payload.paymentId);
  switch (name) {
    case "paymentInitiated":
      return {
        type: "payment",
        status: "info",
        title: "Payment initiated",
        detail: `${text(payload.amount)} ${text(payload.currency)} via ${text(payload.selectedRail)}`,
        payment: { id, outcome: null },
      };
    case "paymentStatusUpdate": {
      const status = text(payload.status);
      const words = PAYMENT_STATUS_WORDS[status] ?? status;
      const detail = text(payload.message) || `Payment ${words}`;
      // Screening's hold is a risk decision, announced on the payment.
      if (status === "held_for_review")
        return {
          type: "risk",
          status: "warning",
          title: "Payment held by screening",
          detail,
          payment: { id, outcome: null },
        };
      const outcome = status === "completed" ? "completed" : status === "failed" ? "failed" : null;
      return {
        type: "payment",
        status:
          status === "completed"
            ? "success"
            : status === "failed" || status === "parked"
              ? "error"
              : status === "awaiting_approval"
                ? "warning"
                : "info",
        title: `Payment ${words}`,
        detail,
        payment: { id, outcome },
      };
    }
    case "paymentCompleted":
      return {
        type: "payment",
        status: "success",
        title: "Payment completed",
        detail: `${text(payload.finalAmount)} via ${text(payload.railUsed)}`,
        payment: { id, outcome: "completed" },
      };
    case "paymentError":
      return {
        type: "payment",
        status: "error",
        title: "Payment failed",
        detail: text(payload.errorMessage),
        payment: { id, outcome: "failed" },
      };
    default:
      return { type: "payment", status: "info", title: name, detail: "" };
  }
}

const SEVERITY_STATUS: Record<string, DemoStatus> = { low: "info", medium: "warning", high: "error" };

function classifyKyc(name: string, payload: Record<string, unknown>): Classified {
  switch (name) {
    case "verificationStarted":
      return { type: "risk", status: "info", title: "KYC verification started", detail: text(payload.countryName) };
    case "documentUploaded":
      return { type: "risk", status: "info", title: "KYC document uploaded", detail: text(payload.documentType) };
    case "documentVerified": {
      const verified = payload.status === "VERIFIED";
      return {
        type: "risk",
        status: verified ? "success" : "error",
        title: verified ? "KYC document verified" : "KYC document rejected",
        detail: text(payload.documentType),
      };
    }
    case "riskAssessmentUpdate":
      return {
        type: "risk",
        status: SEVERITY_STATUS[text(payload.riskLevel)] ?? "info",
        title: "Risk assessment",
        detail: `Score ${String(payload.riskScore ?? "")} (${text(payload.riskLevel)})`,
      };
    case "verificationCompleted": {
      const status = text(payload.status);
      return {
        type: "risk",
        status: status === "VERIFIED" ? "success" : status === "REJECTED" ? "error" : "warning",
        title: status === "REQUIRES_REVIEW" ? "KYC under review" : `KYC ${status.toLowerCase()}`,
        detail: "",
      };
    }
    case "complianceAlert":
      return {
        type: "risk",
        status: text(payload.severity) === "high" ? "error" : "warning",
        title: `Compliance alert: ${text(payload.alertType)}`,
        detail: text(payload.message),
      };
    default:
      return { type: "risk", status: "info", title: name, detail: "" };
  }
}

function classifyLedger(name: string, payload: Record<string, unknown>): Classified {
  const account = text(payload.accountName);
  switch (name) {
    case "reconciliationResult": {
      const reconciled = payload.reconciled === true;
      return {
        type: "reconciliation",
        status: reconciled ? "success" : "warning",
        title: reconciled ? "Account reconciled" : "Reconciliation variance",
        detail: `${account}: variance ${text(payload.variance)} ${text(payload.currency)}`,
      };
    }
    case "lowBalanceAlert":
      return {
        type: "risk",
        status: "warning",
        title: "Low balance",
        detail: `${account}: ${text(payload.currentBalance)} ${text(payload.currency)}, below ${text(payload.threshold)}`,
      };
    case "accountLocked":
      return { type: "risk", status: "error", title: "Account locked", detail: `${account}: ${text(payload.reason)}` };
    case "accountUnlocked":
      return { type: "risk", status: "info", title: "Account unlocked", detail: `${account}: ${text(payload.reason)}` };
    case "balanceUpdate":
      return {
        type: "payment",
        status: "info",
        title: "Balance updated",
        detail: `${account}: ${payload.changeType === "DEBIT" ? "-" : "+"}${text(payload.changeAmount)} ${text(payload.currency)}`,
      };
    case "transactionCreated":
      return {
        type: "payment",
        status: "info",
        title: "Transaction created",
        detail: `${text(payload.amount)} ${text(payload.currency)} ${text(payload.description)}`.trim(),
      };
    case "transactionStatusUpdate": {
      const status = text(payload.status);
      return {
        type: "payment",
        status:
          status === "posted" ? "success" : status === "failed" ? "error" : status === "voided" ? "warning" : "info",
        title: `Transaction ${status}`,
        detail: text(payload.message),
      };
    }
    default:
      return { type: "payment", status: "info", title: name, detail: "" };
  }
}

/** The demo's type, status and words for one stream event. */
export function classifyEvent(event: Pick<StreamEvent, "scope" | "name" | "payload">): Classified {
  switch (event.scope) {
    case "payment":
      return classifyPayment(event.name, event.payload);
    case "kyc":
      return classifyKyc(event.name, event.payload);
    case "ledger":
      return classifyLedger(event.name, event.payload);
  }
}

/** One webhook delivery in its latest state, as the demo logs it. */
export function classifyDelivery(delivery: WebhookDelivery): Classified {
  const last = delivery.attempts.at(-1);
  const answer = last
    ? last.status_code !== null
      ? `HTTP ${last.status_code} in ${last.latency_ms} ms`
      : (last.error ?? "no answer")
    : "not attempted yet";
  const attempts = `${delivery.attempts.length} ${delivery.attempts.length === 1 ? "attempt" : "attempts"}`;
  return {
    type: "webhook",
    status:
      delivery.status === "succeeded"
        ? "success"
        : delivery.status === "failed"
          ? "error"
          : delivery.attempts.length > 0
            ? "warning"
            : "info",
    title: `Webhook ${delivery.status === "pending" && delivery.attempts.length > 0 ? "retrying" : delivery.status}: ${delivery.event_type}`,
    detail: `${answer} · ${attempts}`,
  };
}

import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "@fintech/core/webhooks/model";
import { classifyDelivery, classifyEvent, readStreamEvent, type DemoScope } from "./demoEvents";

const ID = "evt_0000000000000000000000000000";

describe("readStreamEvent", () => {
  it("unwraps {event: {<name>: …}}, reads the stable id and created_at, and tolerates their absence", () => {
    const payment = readStreamEvent(
      "payment",
      "paymentCompleted",
      JSON.stringify({
        id: ID,
        created_at: "2026-01-01T00:00:00.000Z",
        event: { paymentCompleted: { paymentId: "p1", finalAmount: "1.00", railUsed: "ACH" } },
      }),
    );
    expect(payment).toEqual({
      scope: "payment",
      name: "paymentCompleted",
      payload: { paymentId: "p1", finalAmount: "1.00", railUsed: "ACH" },
      id: ID,
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    // The ledger's flat fields; its `at` stands in for created_at; no id yet.
    const ledger = readStreamEvent(
      "ledger",
      "balanceUpdate",
      JSON.stringify({ type: "balanceUpdate", at: "2026-01-01T00:00:01.000Z" }),
    );
    expect(ledger).toMatchObject({
      payload: { type: "balanceUpdate" },
      id: null,
      createdAt: "2026-01-01T00:00:01.000Z",
    });
  });

  it("refuses data that is not a JSON object, and ignores ids that are not short strings", () => {
    expect(readStreamEvent("kyc", "x", "not json")).toBeNull();
    expect(readStreamEvent("kyc", "x", "[1,2]")).toBeNull();
    expect(readStreamEvent("kyc", "x", "null")).toBeNull();
    expect(readStreamEvent("kyc", "x", JSON.stringify({ id: 42 }))?.id).toBeNull();
    expect(readStreamEvent("kyc", "x", JSON.stringify({ id: "x".repeat(201) }))?.id).toBeNull();
  });
});

describe("classifyEvent: the demo's type and status of every event the feeds send", () => {
  const cases: [DemoScope, string, Record<string, unknown>, string, string][] = [
    [
      "payment",
      "paymentInitiated",
      { paymentId: "p", amount: "1.00", currency: "USD", selectedRail: "ACH" },
      "payment",
      "info",
    ],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "pending", message: "m" }, "payment", "info"],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "processing", message: "m" }, "payment", "info"],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "completed", message: "m" }, "payment", "success"],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "failed", message: "m" }, "payment", "error"],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "parked", message: "m" }, "payment", "error"],
    [
      "payment",
      "paymentStatusUpdate",
      { paymentId: "p", status: "awaiting_approval", message: "m" },
      "payment",
      "warning",
    ],
    ["payment", "paymentStatusUpdate", { paymentId: "p", status: "held_for_review", message: "m" }, "risk", "warning"],
    ["payment", "paymentCompleted", { paymentId: "p", finalAmount: "1.00", railUsed: "ACH" }, "payment", "success"],
    ["payment", "paymentError", { paymentId: "p", errorMessage: "declined" }, "payment", "error"],
    ["kyc", "verificationStarted", { countryName: "India" }, "risk", "info"],
    ["kyc", "documentUploaded", { documentType: "passport" }, "risk", "info"],
    ["kyc", "documentVerified", { documentType: "passport", status: "VERIFIED" }, "risk", "success"],
    ["kyc", "documentVerified", { documentType: "passport", status: "REJECTED" }, "risk", "error"],
    ["kyc", "riskAssessmentUpdate", { riskScore: 10, riskLevel: "low" }, "risk", "info"],
    ["kyc", "riskAssessmentUpdate", { riskScore: 45, riskLevel: "medium" }, "risk", "warning"],
    ["kyc", "riskAssessmentUpdate", { riskScore: 80, riskLevel: "high" }, "risk", "error"],
    ["kyc", "verificationCompleted", { status: "VERIFIED" }, "risk", "success"],
    ["kyc", "verificationCompleted", { status: "REJECTED" }, "risk", "error"],
    ["kyc", "verificationCompleted", { status: "REQUIRES_REVIEW" }, "risk", "warning"],
    ["kyc", "complianceAlert", { alertType: "sanctions", severity: "high", message: "m" }, "risk", "error"],
    ["kyc", "complianceAlert", { alertType: "pep", severity: "low", message: "m" }, "risk", "warning"],
    [
      "ledger",
      "reconciliationResult",
      { accountName: "A", reconciled: true, variance: "0" },
      "reconciliation",
      "success",
    ],
    [
      "ledger",
      "reconciliationResult",
      { accountName: "A", reconciled: false, variance: "2" },
      "reconciliation",
      "warning",
    ],
    ["ledger", "lowBalanceAlert", { accountName: "A" }, "risk", "warning"],
    ["ledger", "accountLocked", { accountName: "A", reason: "r" }, "risk", "error"],
    ["ledger", "accountUnlocked", { accountName: "A", reason: "r" }, "risk", "info"],
    ["ledger", "balanceUpdate", { accountName: "A", changeType: "CREDIT", changeAmount: "1" }, "payment", "info"],
    ["ledger", "transactionCreated", { amount: "1", currency: "USD" }, "payment", "info"],
    ["ledger", "transactionStatusUpdate", { status: "posted" }, "payment", "success"],
    ["ledger", "transactionStatusUpdate", { status: "voided" }, "payment", "warning"],
    ["ledger", "transactionStatusUpdate", { status: "failed" }, "payment", "error"],
  ];
  it.each(cases)("%s.%s %j is %s / %s", (scope, name, payload, type, status) => {
    expect(classifyEvent({ scope, name, payload })).toMatchObject({ type, status });
  });

  it("says which payment ended and how", () => {
    expect(classifyEvent({ scope: "payment", name: "paymentCompleted", payload: { paymentId: "p1" } }).payment).toEqual(
      {
        id: "p1",
        outcome: "completed",
      },
    );
    expect(classifyEvent({ scope: "payment", name: "paymentError", payload: { paymentId: "p2" } }).payment).toEqual({
      id: "p2",
      outcome: "failed",
    });
    expect(
      classifyEvent({
        scope: "payment",
        name: "paymentStatusUpdate",
        payload: { paymentId: "p3", status: "processing" },
      }).payment,
    ).toEqual({ id: "p3", outcome: null });
  });

  it("an unknown event name keeps its scope's type and reads as info", () => {
    expect(classifyEvent({ scope: "ledger", name: "somethingNew", payload: {} })).toMatchObject({
      type: "payment",
      status: "info",
    });
    expect(classifyEvent({ scope: "kyc", name: "somethingNew", payload: {} })).toMatchObject({
      type: "risk",
      status: "info",
    });
  });
});

describe("classifyDelivery", () => {
  const delivery = (overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
    id: "d1",
    endpoint_id: "e1",
    event_id: ID,
    event_type: "payment.paymentCompleted",
    status: "pending",
    attempts: [],
    next_attempt_at: null,
    failure_reason: null,
    created_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  });
  const attempt = (status_code: number | null, error: string | null = null) => ({
    at: "2026-01-01T00:00:00.000Z",
    trigger: "automatic" as const,
    status_code,
    latency_ms: 12,
    error,
    response_excerpt: "",
  });

  it("succeeded is success, failed is error, retrying is warning, not yet attempted is info", () => {
    expect(classifyDelivery(delivery({ status: "succeeded", attempts: [attempt(200)] }))).toMatchObject({
      type: "webhook",
      status: "success",
      detail: "HTTP 200 in 12 ms · 1 attempt",
    });
    expect(
      classifyDelivery(delivery({ status: "failed", attempts: [attempt(500), attempt(null, "timed out")] })),
    ).toMatchObject({
      status: "error",
      detail: "timed out · 2 attempts",
    });
    expect(classifyDelivery(delivery({ attempts: [attempt(503)] }))).toMatchObject({
      status: "warning",
      title: "Webhook retrying: payment.paymentCompleted",
    });
    expect(classifyDelivery(delivery({}))).toMatchObject({ status: "info", detail: "not attempted yet · 0 attempts" });
  });
});

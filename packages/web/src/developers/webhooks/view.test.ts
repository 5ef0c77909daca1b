import { describe, expect, it } from "vitest";
import type { WebhookDelivery, WebhookEndpoint } from "@fintech/core/webhooks/model";
import { ApiError } from "../../api/errors";
import type { EventTypeInfo } from "../../api/webhooks";
import {
  automaticallyDisabled,
  deliveryFailureReason,
  deliveryStatusLabel,
  endpointChanges,
  endpointFormOf,
  endpointFormSchema,
  endpointStatusLabel,
  failingWarning,
  feedTickState,
  groupEventTypes,
  hasPendingDelivery,
  PREVIOUS_SECRET_WINDOW,
  replaySinceMessage,
  retryWindowLabel,
  secretHintLabel,
  toggleFeed,
  urlFieldError,
} from "./view";

const endpoint: WebhookEndpoint = {
  id: "we_1",
  url: "https://hooks.example.com/in",
  description: "Orders",
  event_types: ["ledger.transactionCreated", "payment.paymentCompleted"],
  status: "enabled",
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  secret_hint: "abcd",
  previous_secret_expires_at: null,
  created_at: "2026-03-14T12:00:00.000Z",
  updated_at: "2026-03-14T12:00:00.000Z",
};

const info = (type: string, feed: string): EventTypeInfo => ({ type, feed, description: "" }) as EventTypeInfo;
const catalogue = [
  info("payment.paymentCompleted", "payment"),
  info("ledger.balanceUpdate", "ledger"),
  info("ledger.transactionCreated", "ledger"),
  info("kyc.documentUploaded", "kyc"),
];

describe("endpoint status", () => {
  it("says enabled, or why it is disabled", () => {
    expect(endpointStatusLabel(endpoint)).toBe("Enabled");
    expect(endpointStatusLabel({ status: "disabled", disabled_reason: "manual" })).toBe("Disabled by you");
    expect(endpointStatusLabel({ status: "disabled", disabled_reason: "gone" })).toBe(
      "Disabled: the endpoint answered 410 Gone",
    );
    expect(endpointStatusLabel({ status: "disabled", disabled_reason: "failing" })).toBe(
      "Disabled after 5 days of failed deliveries",
    );
  });

  it("names only the endpoints the server turned off in the notice", () => {
    const gone = { ...endpoint, id: "we_2", status: "disabled", disabled_reason: "gone" } as const;
    const failing = { ...endpoint, id: "we_3", status: "disabled", disabled_reason: "failing" } as const;
    const mine = { ...endpoint, id: "we_4", status: "disabled", disabled_reason: "manual" } as const;
    expect(automaticallyDisabled([endpoint, gone, failing, mine]).map((item) => item.id)).toEqual(["we_2", "we_3"]);
  });

  it("warns while an enabled endpoint is failing, not once it is off", () => {
    expect(failingWarning(endpoint)).toBeNull();
    expect(failingWarning({ status: "enabled", failing_since: "2026-03-14T12:00:00.000Z" })).toMatch(
      /^Every delivery has failed since .+; after 5 days of failures the endpoint is disabled\.$/,
    );
    expect(failingWarning({ status: "disabled", failing_since: "2026-03-14T12:00:00.000Z" })).toBeNull();
  });

  it("shows the secret's hint as its cut-short end and the published windows in words", () => {
    expect(secretHintLabel("abcd")).toBe("…abcd");
    expect(PREVIOUS_SECRET_WINDOW).toBe("24 hours");
    // 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h = 27 h 35 min 5 s.
    expect(retryWindowLabel()).toBe("about 28 hours");
  });
});

describe("deliveries", () => {
  const base: WebhookDelivery = {
    id: "wd_1",
    endpoint_id: "we_1",
    event_id: "evt_1",
    event_type: "ledger.transactionCreated",
    status: "pending",
    attempts: [],
    next_attempt_at: null,
    failure_reason: null,
    created_at: "2026-03-14T12:00:00.000Z",
  };
  const attempt = {
    at: "2026-03-14T12:00:01.000Z",
    trigger: "automatic",
    status_code: 500,
    latency_ms: 30,
    error: null,
    response_excerpt: "",
  } as const;

  it("labels each state, a retry with when it comes", () => {
    expect(deliveryStatusLabel(base)).toBe("Pending");
    expect(deliveryStatusLabel({ ...base, attempts: [attempt], next_attempt_at: "2026-03-14T12:00:06.000Z" })).toMatch(
      /^Retrying - next at .*2026/,
    );
    expect(deliveryStatusLabel({ ...base, status: "succeeded" })).toBe("Succeeded");
    expect(deliveryStatusLabel({ ...base, status: "failed" })).toBe("Failed");
    expect(deliveryFailureReason({ status: "failed", failure_reason: "retries_exhausted" })).toBe(
      "every scheduled attempt failed",
    );
    expect(deliveryFailureReason({ status: "succeeded", failure_reason: null })).toBeNull();
  });

  it("polls while any delivery is pending", () => {
    expect(hasPendingDelivery([{ status: "succeeded" }, { status: "failed" }])).toBe(false);
    expect(hasPendingDelivery([{ status: "succeeded" }, { status: "pending" }])).toBe(true);
  });

  it("says how many a replay since scheduled, and where the rest starts", () => {
    expect(replaySinceMessage({ scheduled: 1, has_more: false, next_since: null })).toBe("1 delivery scheduled again");
    expect(replaySinceMessage({ scheduled: 0, has_more: false, next_since: null })).toBe(
      "0 deliveries scheduled again",
    );
    expect(replaySinceMessage({ scheduled: 5000, has_more: true, next_since: "2026-03-14T12:00:00.000Z" })).toMatch(
      /^5000 deliveries scheduled again; more remain from .+: replay again from there$/,
    );
  });
});

describe("event types by feed", () => {
  it("groups the catalogue in the feeds' order", () => {
    expect(groupEventTypes(catalogue).map((group) => [group.label, group.types.map((item) => item.type)])).toEqual([
      ["Ledger", ["ledger.balanceUpdate", "ledger.transactionCreated"]],
      ["KYC", ["kyc.documentUploaded"]],
      ["Payments", ["payment.paymentCompleted"]],
    ]);
  });

  it("ticks a whole feed, and clears it when all of it is ticked", () => {
    const ledger = groupEventTypes(catalogue)[0]!;
    expect(feedTickState(["payment.paymentCompleted"], ledger)).toBe("none");
    const some = ["payment.paymentCompleted", "ledger.transactionCreated"];
    expect(feedTickState(some, ledger)).toBe("some");
    const all = toggleFeed(some, ledger);
    expect(all).toEqual(["payment.paymentCompleted", "ledger.transactionCreated", "ledger.balanceUpdate"]);
    expect(feedTickState(all, ledger)).toBe("all");
    expect(toggleFeed(all, ledger)).toEqual(["payment.paymentCompleted"]);
  });
});

describe("the endpoint form", () => {
  it("checks what the server checks, in its words", () => {
    const parsed = endpointFormSchema.safeParse({ url: " ", description: "", event_types: [], enabled: true });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      "A URL is required",
      "Choose at least one event type",
    ]);
    expect(
      endpointFormSchema.safeParse({ url: "https://a.example", description: "", event_types: ["nope"], enabled: true })
        .success,
    ).toBe(false);
  });

  it("sends only what changed", () => {
    const form = endpointFormSchema.parse(endpointFormOf(endpoint));
    expect(endpointChanges(endpoint, form)).toEqual({});
    expect(
      endpointChanges(endpoint, { ...form, event_types: [...form.event_types].reverse(), description: "Orders v2" }),
    ).toEqual({ description: "Orders v2" });
    expect(endpointChanges(endpoint, { ...form, enabled: false, url: "https://b.example/in" })).toEqual({
      url: "https://b.example/in",
      enabled: false,
    });
  });

  it("puts a refused URL at the URL field and anything else under the form", () => {
    const refused = new ApiError("Webhook URLs must use https", "server-message", 400, "webhook_url_insecure");
    expect(urlFieldError(refused)).toBe("Webhook URLs must use https");
    expect(urlFieldError(new ApiError("Too many", "server-message", 409, "webhook_endpoint_limit"))).toBeNull();
    expect(urlFieldError(new Error("boom"))).toBeNull();
  });
});

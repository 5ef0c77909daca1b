import { describe, expect, it } from "vitest";
import type { WebhookDelivery, WebhookEndpoint } from "@fintech/core/webhooks/model";
import { createHttpClient } from "./client";
import { ApiError } from "./errors";
import { fakeFetch, fakeTokens, json } from "./testing";
import { webhookEndpoints } from "./webhooks";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(reply);
  const config = { baseUrl: "https://api.test", fetch: fake.fetch, credentials: fakeTokens("session-1").source };
  return { api: webhookEndpoints(createHttpClient(config)), calls: fake.calls };
}

const endpoint: WebhookEndpoint = {
  id: "we/1",
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

const delivery: WebhookDelivery = {
  id: "wd/1",
  endpoint_id: "we/1",
  event_id: "evt_1",
  event_type: "webhook.test",
  status: "succeeded",
  attempts: [
    {
      at: "2026-03-14T12:00:01.000Z",
      trigger: "test",
      status_code: 200,
      latency_ms: 12,
      error: null,
      response_excerpt: "ok",
    },
  ],
  next_attempt_at: null,
  failure_reason: null,
  created_at: "2026-03-14T12:00:00.000Z",
};

describe("webhooks client", () => {
  it("lists the event-type catalogue and the endpoints with the session token", async () => {
    const { api, calls } = setup((call) =>
      call.url.endsWith("/event-types")
        ? json(200, { data: [{ type: "ledger.balanceUpdate", feed: "ledger", description: "A balance changed" }] })
        : json(200, { data: [endpoint] }),
    );
    expect(await api.eventTypes()).toEqual([
      { type: "ledger.balanceUpdate", feed: "ledger", description: "A balance changed" },
    ]);
    expect(await api.list()).toEqual([endpoint]);
    expect(calls.map((call) => call.url)).toEqual([
      "https://api.test/api/v1/webhooks/event-types",
      "https://api.test/api/v1/webhooks/endpoints",
    ]);
    expect(calls[1]!.headers.get("Authorization")).toBe("Bearer session-1");
  });

  it("creates an endpoint with the action's idempotency key and returns the once-only secret", async () => {
    const { api, calls } = setup(() => json(201, { data: { endpoint, secret: "whsec_c2VjcmV0" } }));
    const input = { url: endpoint.url, description: "Orders", event_types: endpoint.event_types, enabled: true };
    expect(await api.create(input, "key-1")).toEqual({ endpoint, secret: "whsec_c2VjcmV0" });
    expect(calls[0]).toMatchObject({ method: "POST", url: "https://api.test/api/v1/webhooks/endpoints", body: input });
    expect(calls[0]!.headers.get("Idempotency-Key")).toBe("key-1");
  });

  it("encodes ids in every path: edit, delete, rotate, test, replay", async () => {
    const { api, calls } = setup((call) => {
      if (call.url.endsWith("/rotate-secret")) return json(200, { data: { endpoint, secret: "whsec_bmV3" } });
      if (call.url.endsWith("/test") || (call.url.endsWith("/replay") && call.url.includes("deliveries")))
        return json(200, { data: delivery });
      if (call.url.endsWith("/replay")) return json(200, { data: { scheduled: 3, has_more: false, next_since: null } });
      if (call.method === "DELETE") return new Response(null, { status: 204 });
      return json(200, { data: endpoint });
    });
    await api.update("we/1", { enabled: false });
    await api.remove("we/1");
    expect((await api.rotateSecret("we/1")).secret).toBe("whsec_bmV3");
    expect(await api.sendTest("we/1")).toEqual(delivery);
    expect(await api.replay("we/1", "wd/1")).toEqual(delivery);
    expect(await api.replaySince("we/1", "2026-03-14T00:00:00.000Z")).toEqual({
      scheduled: 3,
      has_more: false,
      next_since: null,
    });
    expect(calls.map((call) => `${call.method} ${call.url.replace("https://api.test/api/v1/webhooks", "")}`)).toEqual([
      "PATCH /endpoints/we%2F1",
      "DELETE /endpoints/we%2F1",
      "POST /endpoints/we%2F1/rotate-secret",
      "POST /endpoints/we%2F1/test",
      "POST /endpoints/we%2F1/deliveries/wd%2F1/replay",
      "POST /endpoints/we%2F1/replay",
    ]);
    expect(calls[0]!.body).toEqual({ enabled: false });
    expect(calls[5]!.body).toEqual({ since: "2026-03-14T00:00:00.000Z" });
  });

  it("pages the delivery log by status and cursor; 'all' sends no status", async () => {
    const { api, calls } = setup(() => json(200, { data: [delivery], next_cursor: "c2" }));
    expect(await api.deliveries("we/1", { status: "failed", cursor: "c1", limit: 20 })).toEqual({
      deliveries: [delivery],
      nextCursor: "c2",
    });
    await api.deliveries("we/1", { status: "all" });
    expect(calls.map((call) => call.url)).toEqual([
      "https://api.test/api/v1/webhooks/endpoints/we%2F1/deliveries?status=failed&cursor=c1&limit=20",
      "https://api.test/api/v1/webhooks/endpoints/we%2F1/deliveries",
    ]);
  });

  it("refuses a reply that is not in the documented shape", async () => {
    const { api } = setup(() => json(200, { data: [{ id: "we/1" }] }));
    await expect(api.list()).rejects.toMatchObject({ kind: "invalid-response" });
  });

  it("carries the server's message and code on a refusal", async () => {
    const { api } = setup(() => json(400, { message: "Webhook URLs must use https", code: "webhook_url_insecure" }));
    const failure = await api
      .create({ url: "http://example.com", event_types: ["ledger.balanceUpdate"] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      code: "webhook_url_insecure",
      message: "Webhook URLs must use https",
    });
  });
});

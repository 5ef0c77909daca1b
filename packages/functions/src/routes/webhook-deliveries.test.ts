import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import { REPLAY_SINCE_LIMIT } from "@fintech/core/webhooks/deliveries";

/**
 * The delivery log, replay and test routes through the HTTP app: owner checks (another user's
 * endpoint or delivery is a 404), API-key scopes, bad input answered 4xx with nothing changed.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let hook: TestReceiver;
let owner: { token: string };
let stranger: { token: string };
let endpointId: string;
const base = "/api/v1/webhooks/endpoints";

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_LOCAL_TARGETS: "true" });
  hook = await startReceiver(200);
  owner = await t.signUp(`deliveries-owner-${Date.now()}@example.com`);
  stranger = await t.signUp(`deliveries-stranger-${Date.now()}@example.com`);
  const created = await t.call("POST", base, {
    token: owner.token,
    body: { url: hook.url, event_types: ["ledger.transactionCreated"], description: "routes" },
  });
  expect(created.status).toBe(201);
  endpointId = created.body.data.endpoint.id;
});
afterAll(async () => {
  await hook.close();
  await t.core.dispose();
});

describe("test send, the log and replay", () => {
  it("sends a test event, lists it, pages, replays it, and keeps others out", async () => {
    const first = await t.call("POST", `${base}/${endpointId}/test`, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ event_type: "webhook.test", status: "succeeded", endpoint_id: endpointId });
    expect(first.body.data.attempts).toEqual([expect.objectContaining({ trigger: "test", status_code: 200 })]);
    expect(hook.received).toHaveLength(1);
    const second = await t.call("POST", `${base}/${endpointId}/test`, { token: owner.token });
    expect(second.status).toBe(200);

    const page1 = await t.call("GET", `${base}/${endpointId}/deliveries?limit=1`, { token: owner.token });
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.data[0].id).toBe(second.body.data.id);
    expect(page1.body.has_more).toBe(true);
    const page2 = await t.call(
      "GET",
      `${base}/${endpointId}/deliveries?limit=1&cursor=${encodeURIComponent(page1.body.next_cursor)}`,
      { token: owner.token },
    );
    expect(page2.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([first.body.data.id]);
    expect(page2.body.next_cursor).toBeNull();
    const failedOnly = await t.call("GET", `${base}/${endpointId}/deliveries?status=failed`, { token: owner.token });
    expect(failedOnly.body.data).toEqual([]);

    const deliveryPath = `${base}/${endpointId}/deliveries/${first.body.data.id}`;
    expect((await t.call("GET", deliveryPath, { token: owner.token })).body.data.id).toBe(first.body.data.id);
    const replayed = await t.call("POST", `${deliveryPath}/replay`, { token: owner.token });
    expect(replayed.status).toBe(200);
    expect(replayed.body.data.attempts.map((attempt: { trigger: string }) => attempt.trigger)).toEqual([
      "test",
      "replay",
    ]);
    expect(hook.received[2]!.headers["webhook-id"]).toBe(first.body.data.event_id);

    // Another user sees none of it, whatever the id.
    const before = await dataItems(t.core);
    for (const [method, path] of [
      ["GET", `${base}/${endpointId}/deliveries`],
      ["GET", deliveryPath],
      ["POST", `${deliveryPath}/replay`],
      ["POST", `${base}/${endpointId}/test`],
    ] as const) {
      const reply = await t.call(method, path, { token: stranger.token });
      expect(reply.status, path).toBe(404);
      expect(reply.body.code).toBe("webhook_endpoint_not_found");
    }
    const replaySince = await t.call("POST", `${base}/${endpointId}/replay`, {
      token: stranger.token,
      body: { since: new Date().toISOString() },
    });
    expect(replaySince.body.code).toBe("webhook_endpoint_not_found");
    expect(hook.received).toHaveLength(3);
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("answers bad ids, queries and bodies with a 4xx and a stable code", async () => {
    const cases: [string, string, unknown, number, string][] = [
      ["GET", `${base}/${endpointId}/deliveries/wd_nope`, undefined, 404, "webhook_delivery_not_found"],
      ["GET", `${base}/${endpointId}/deliveries/${"w".repeat(3_000)}`, undefined, 404, "webhook_delivery_not_found"],
      ["POST", `${base}/${endpointId}/deliveries/wd_nope/replay`, undefined, 404, "webhook_delivery_not_found"],
      ["GET", `${base}/we_unknown/deliveries`, undefined, 404, "webhook_endpoint_not_found"],
      ["GET", `${base}/${"x".repeat(3_000)}/deliveries`, undefined, 404, "webhook_endpoint_not_found"],
      ["GET", `${base}/${endpointId}/deliveries?status=lost`, undefined, 400, "validation_error"],
      ["GET", `${base}/${endpointId}/deliveries?limit=0`, undefined, 400, "validation_error"],
      ["GET", `${base}/${endpointId}/deliveries?limit=abc`, undefined, 400, "validation_error"],
      ["GET", `${base}/${endpointId}/deliveries?cursor=forged.cursor`, undefined, 400, "invalid_cursor"],
      ["GET", `${base}/${endpointId}/deliveries?cursor=${"a".repeat(5_000)}`, undefined, 400, "invalid_cursor"],
      ["POST", `${base}/${endpointId}/replay`, {}, 400, "validation_error"],
      ["POST", `${base}/${endpointId}/replay`, { since: 12 }, 400, "validation_error"],
      ["POST", `${base}/${endpointId}/replay`, { since: "yesterday" }, 400, "validation_error"],
      ["POST", `${base}/${endpointId}/replay`, "{not json", 400, "invalid_json"],
      ["POST", `${base}/${endpointId}/replay`, { since: "2020-01-01T00:00:00Z" }, 400, "replay_since_too_old"],
    ];
    const before = await dataItems(t.core);
    for (const [method, path, body, status, code] of cases) {
      const reply = await t.call(method, path, { token: owner.token, body });
      expect([reply.status, reply.body.code], `${method} ${path.slice(0, 120)}`).toEqual([status, code]);
    }
    expect(await dataItems(t.core)).toEqual(before);
    expect((await t.call("GET", `${base}/${endpointId}/deliveries`)).status).toBe(401);
    expect((await t.call("POST", `${base}/${endpointId}/test`, { token: "forged" })).status).toBe(401);
  });

  it("holds API keys to the webhooks scopes", async () => {
    const key = await t.call("POST", "/api/v1/api-keys", {
      token: owner.token,
      body: { name: "read only", scopes: ["webhooks:read"] },
    });
    expect(key.status).toBe(201);
    const apiKey = key.body.data.key as string;
    expect((await t.call("GET", `${base}/${endpointId}/deliveries`, { token: apiKey })).status).toBe(200);
    const refused = await t.call("POST", `${base}/${endpointId}/test`, { token: apiKey });
    expect([refused.status, refused.body.code]).toEqual([403, "insufficient_scope"]);
  });

  it("replays everything since a time, within its hourly limit", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const reply = await t.call("POST", `${base}/${endpointId}/replay`, { token: owner.token, body: { since } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ scheduled: 2, has_more: false, next_since: null });
    let last = reply;
    for (let call = 1; call <= REPLAY_SINCE_LIMIT.limit; call += 1)
      last = await t.call("POST", `${base}/${endpointId}/replay`, { token: owner.token, body: { since } });
    expect([last.status, last.body.code]).toEqual([429, "rate_limited"]);
  });

  it("refuses replays and test sends to a disabled endpoint", async () => {
    const disabled = await t.call("PATCH", `${base}/${endpointId}`, { token: owner.token, body: { enabled: false } });
    expect(disabled.status).toBe(200);
    const list = await t.call("GET", `${base}/${endpointId}/deliveries`, { token: owner.token });
    for (const path of [
      `${base}/${endpointId}/test`,
      `${base}/${endpointId}/deliveries/${list.body.data[0].id}/replay`,
    ]) {
      const reply = await t.call("POST", path, { token: owner.token });
      expect([reply.status, reply.body.code]).toEqual([409, "webhook_endpoint_disabled"]);
    }
  });
});

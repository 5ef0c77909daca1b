import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomerAccount } from "@fintech/core/ledger/accounts";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { deposit } from "@fintech/core/ledger/service";
import { createApp } from "@fintech/functions/app";
import { createTestContext } from "@fintech/testing/context";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import { verifyEmailForTests } from "@fintech/testing/auth";
import { freePort } from "./ports";
import { closeServer, listen } from "./server";
import { LocalWebhookDispatcher } from "./webhook-dispatcher";
import { eventTypesOf, LISTEN_DESCRIPTION, signIn, startWebhookListener, type Listener } from "./webhooks-listen";

/**
 * `npm run webhooks:listen` against the embedded stack's pieces: the real app on a port and the
 * embedded webhook dispatcher (infra/local/webhook-dispatcher.ts) over one table, as `npm start`
 * runs them. A real deposit is delivered, verified and printed; a forged request is refused; the
 * listener's endpoint is gone after it stops; a second listener on the same URL takes the
 * endpoint back; forwarding relays the target's answer.
 */

const ctxPromise = createTestContext({ WEBHOOK_LOCAL_TARGETS: "true" });
let ctx: Awaited<typeof ctxPromise>;
let server: Server;
let api: string;
let token: string;
let userId: string;
let accountId: string;
const dispatcher = new LocalWebhookDispatcher({ pollMs: 200 });

/** Resolves once a printed line matches, re-checking on every line printed; rejects after `timeoutMs`. */
function lines() {
  const printed: string[] = [];
  const waiters = new Set<() => void>();
  return {
    printed,
    print: (line: string) => {
      printed.push(line);
      for (const waiter of waiters) waiter();
    },
    waitFor: (pattern: RegExp, timeoutMs = 30_000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = printed.find((line) => pattern.test(line));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line matched ${pattern} in ${timeoutMs} ms: ${JSON.stringify(printed)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

const call = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(new URL(route, api), {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

beforeAll(async () => {
  ctx = await ctxPromise;
  server = await listen(createApp(ctx), 0);
  const address = server.address();
  api = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const email = `listener-${Date.now()}@example.com`;
  const registered = await fetch(new URL("/api/v1/auth/register", api), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "long enough pw", first_name: "Lis", last_name: "Tener" }),
  });
  expect(registered.status).toBe(201);
  userId = ((await registered.json()) as { data: { user: { id: string } } }).data.user.id;
  await verifyEmailForTests(ctx, userId);
  token = await signIn(api, email, "long enough pw");
  accountId = (
    await createCustomerAccount(ctx, userId, CreateAccountInput.parse({ name: "Listener", currency: "USD" }))
  ).account.id;
  dispatcher.start(ctx);
});
afterAll(async () => {
  await dispatcher.stop();
  await closeServer(server);
  await ctx?.dispose();
});

describe("npm run webhooks:listen", () => {
  it("expands feed wildcards and refuses types that do not exist", () => {
    expect(eventTypesOf("payment.*")).toEqual([
      "payment.paymentInitiated",
      "payment.paymentStatusUpdate",
      "payment.paymentCompleted",
      "payment.paymentError",
    ]);
    expect(eventTypesOf("ledger.balanceUpdate,ledger.balanceUpdate")).toEqual(["ledger.balanceUpdate"]);
    expect(() => eventTypesOf("ledger.nope")).toThrow(/Unknown event type 'ledger.nope'/);
    expect(() => eventTypesOf("bogus.*")).toThrow(/Unknown event type/);
  });

  it("registers an endpoint, prints a real delivery as verified, refuses a forged one, and deletes its endpoint on stop", async () => {
    const output = lines();
    let listener: Listener | null = await startWebhookListener({
      api,
      bearer: token,
      port: 0,
      eventTypes: eventTypesOf("ledger.*"),
      forwardTo: null,
      print: output.print,
    });
    try {
      expect(listener.secret).toMatch(/^whsec_/);
      expect(listener.endpoint).toMatchObject({
        url: listener.url,
        description: LISTEN_DESCRIPTION,
        status: "enabled",
      });

      await deposit(ctx, userId, { account_id: accountId, amount: "25.00" }, null);
      const line = await output.waitFor(/ledger\.transactionCreated\s+verified$/);
      expect(line).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}\s+evt_[0-9a-z]+\s+ledger\.transactionCreated\s+verified$/);

      const forged = await fetch(listener.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": "evt_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,bm90IGEgc2lnbmF0dXJl",
        },
        body: JSON.stringify({ id: "evt_forged", type: "ledger.balanceUpdate", data: {} }),
      });
      expect(forged.status).toBe(400);
      expect(await output.waitFor(/evt_forged\s+REJECTED/)).toBeTruthy();

      await listener.stop();
      listener = null;
      const after = await call("GET", "/api/v1/webhooks/endpoints");
      expect(after.body.data).toEqual([]);
    } finally {
      await listener?.stop();
    }
  });

  it("takes back the endpoint a killed run left on its URL, and relays a forward target's answer", async () => {
    const target: TestReceiver = await startReceiver(202);
    // A run killed before Ctrl-C leaves its endpoint registered for its URL.
    const port = await freePort();
    const leftBehind = await call("POST", "/api/v1/webhooks/endpoints", {
      url: `http://127.0.0.1:${port}/webhooks`,
      description: LISTEN_DESCRIPTION,
      event_types: ["ledger.balanceUpdate"],
    });
    expect(leftBehind.status).toBe(201);
    const output = lines();
    const listener = await startWebhookListener({
      api,
      bearer: token,
      port,
      eventTypes: eventTypesOf("ledger.transactionCreated"),
      forwardTo: target.url,
      print: output.print,
    });
    try {
      expect(listener.endpoint.id).toBe(leftBehind.body.data.endpoint.id);
      // A new secret (the old one, which no one holds, stays valid only through the rotation's overlap).
      expect(listener.secret).not.toBe(leftBehind.body.data.secret);
      const mine = (await call("GET", "/api/v1/webhooks/endpoints")).body.data as {
        id: string;
        event_types: string[];
      }[];
      expect(mine).toEqual([
        expect.objectContaining({ id: listener.endpoint.id, event_types: ["ledger.transactionCreated"] }),
      ]);

      await deposit(ctx, userId, { account_id: accountId, amount: "5.00" }, null);
      expect(await output.waitFor(/ledger\.transactionCreated\s+verified\s+-> 202$/)).toBeTruthy();
      await target.waitFor((received) => received.length >= 1);
      expect(target.received[0]!.headers["webhook-id"]).toMatch(/^evt_/);
    } finally {
      await listener.stop();
      await target.close();
    }
  });
});

import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptOutcomeItems, chooseRail, decisionItems } from "@fintech/core/rails/routing";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * The rail statistics routes through the whole app: metrics, throughput and the rails' live
 * figures from attempt outcomes written as the payments service writes them; routing decisions
 * visible to their payer and to admins only; every bad query parameter a 400 that changes nothing.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const now = new Date("2026-11-26T12:00:30.000Z");
let adminToken: string;
const users: { token: string; id: string }[] = [];
const RAILS = "/api/v1/rails";

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "routing-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  adminToken = (
    await t.call("POST", "/api/v1/auth/login", {
      body: { email: "routing-admin@example.com", password: "admin password 1" },
      ip: nextTestAddress(),
    })
  ).body.data.token;
  for (const email of ["payer-a@example.com", "payer-b@example.com"]) {
    const session = await t.signUp(email);
    users.push({ token: session.token, id: session.user.id });
  }
  const write = (items: ReturnType<typeof decisionItems>) =>
    t.core.db.doc.send(new TransactWriteCommand({ TransactItems: items }));
  // Three finished attempts on SEPA (two succeeded, in EUR and USD) and one failed on Card.
  const outcomes = [
    { railId: "sepa", outcome: "succeeded" as const, amountMinor: 20_000, currency: "EUR" as const },
    { railId: "sepa", outcome: "succeeded" as const, amountMinor: 5_000, currency: "USD" as const },
    { railId: "sepa", outcome: "failed" as const, amountMinor: 5_000, currency: "USD" as const },
    { railId: "card", outcome: "failed" as const, amountMinor: 1_000, currency: "USD" as const },
  ];
  for (const [index, outcome] of outcomes.entries()) {
    await write(
      attemptOutcomeItems({
        ...outcome,
        paymentId: `pay-route-${index}`,
        attemptNumber: 1,
        startedAt: new Date(now.getTime() - 1_500).toISOString(),
        finishedAt: now.toISOString(),
        table: t.core.db.table,
      }),
    );
  }
  // One decision per payer.
  for (const [index, user] of users.entries()) {
    const paymentId = `pay-user-${index}`;
    // EUR to Germany: the default (first eligible) rail is Card (EUR 0.09 fixed), SEPA is preferred (EUR 0.02).
    const decision = await chooseRail(t.core, {
      paymentId,
      amountMinor: 10_000 * (index + 1),
      currency: "EUR",
      country: "DE",
      preferredRail: "SEPA",
    });
    await write(
      decisionItems(decision, {
        paymentId,
        userId: user.id,
        at: new Date(now.getTime() - (2 - index) * 1000).toISOString(),
        table: t.core.db.table,
      }),
    );
  }
});
afterAll(async () => {
  await t.core.dispose();
});

const get = (path: string, token = users[0]!.token) => t.call("GET", path, { token });

describe("who may read", () => {
  it.each([`${RAILS}/metrics`, `${RAILS}/throughput`, `${RAILS}/decisions`])(
    "%s: 401 without a token",
    async (path) => {
      expect((await t.call("GET", path)).status).toBe(401);
    },
  );

  it("a user sees only their own decisions, an admin everyone's", async () => {
    const [a, b] = users as [{ token: string; id: string }, { token: string; id: string }];
    const own = await get(`${RAILS}/decisions`, a.token);
    expect(own.status).toBe(200);
    expect(own.body.data.scope).toBe("own");
    expect(
      own.body.data.decisions.map((entry: { paymentId: string; userId: string }) => [entry.paymentId, entry.userId]),
    ).toEqual([["pay-user-0", a.id]]);
    expect(own.body.data.decisions[0].decision).toMatchObject({
      strategy: "preferred",
      chosenRail: "SEPA",
      defaultRail: "Card",
      savingMinor: 7,
      saving: "0.07",
      destinationCountry: "DE",
    });
    expect(own.body.data.decisions[0].decision.excluded.map((entry: { rail: string }) => entry.rail)).toEqual([
      "ACH",
      "Wire",
      "UPI",
    ]);
    expect(own.body.data.savingsByDay).toEqual([
      { day: "2026-11-26", currency: "EUR", saving: "0.07", savingMinor: 7, decisions: 1 },
    ]);
    const other = await get(`${RAILS}/decisions`, b.token);
    expect(other.body.data.decisions.map((entry: { paymentId: string }) => entry.paymentId)).toEqual(["pay-user-1"]);

    const all = await get(`${RAILS}/decisions?limit=50`, adminToken);
    expect(all.body.data.scope).toBe("all");
    expect(all.body.data.decisions.map((entry: { paymentId: string }) => entry.paymentId)).toEqual([
      "pay-user-1",
      "pay-user-0",
    ]);
    expect(all.body.data.savingsByDay).toEqual([
      { day: "2026-11-26", currency: "EUR", saving: "0.14", savingMinor: 14, decisions: 2 },
    ]);
    expect((await get(`${RAILS}/decisions?limit=1`, adminToken)).body.data.decisions).toHaveLength(1);
  });
});

describe("figures from real attempts", () => {
  it("metrics", async () => {
    const reply = await get(`${RAILS}/metrics`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      totalTransactions: 4,
      succeededTransactions: 2,
      failedTransactions: 2,
      successRate: 50,
      avgProcessingTime: 1.5,
      totalVolume: 50,
      volumeByCurrency: [
        { currency: "EUR", volume: "200.00", volumeMinor: 20_000, transactions: 1 },
        { currency: "USD", volume: "50.00", volumeMinor: 5_000, transactions: 1 },
      ],
      activeRails: 7,
      totalRails: 7,
      disabledRails: 0,
      // The USD figure: these savings were in euros (savingsByCurrency has them).
      costSavings: 0,
      dailySavings: 0,
      decisions: 2,
      monthlyThroughput: 4,
    });
    expect(reply.body.data.perRail.find((rail: { railId: string }) => rail.railId === "sepa")).toMatchObject({
      transactions: 3,
      succeeded: 2,
      failed: 1,
      successRate: 66.7,
      decisions: 2,
    });
  });

  it("throughput per range, every point present", async () => {
    const hour = await get(`${RAILS}/throughput?range=1h`);
    expect(hour.status).toBe(200);
    expect(hour.body.data).toMatchObject({ range: "1h", bucketSeconds: 60 });
    const sepa = hour.body.data.series.find((entry: { railId: string }) => entry.railId === "sepa");
    expect(sepa.points).toHaveLength(60);
    expect(sepa.points.at(-1)).toEqual({ at: "2026-11-26T12:00:00.000Z", transactions: 3, succeeded: 2, failed: 1 });
    const byDefault = await get(`${RAILS}/throughput`);
    expect(byDefault.body.data).toMatchObject({ range: "24h", bucketSeconds: 3_600 });
    for (const [range, points] of [
      ["7d", 56],
      ["30d", 30],
    ] as const) {
      const reply = await get(`${RAILS}/throughput?range=${range}`);
      expect(reply.body.data.series.map((entry: { points: unknown[] }) => entry.points.length)).toEqual(
        Array.from({ length: 7 }, () => points),
      );
    }
  });

  it("the rails list and detail carry live figures where there were attempts, sample figures elsewhere", async () => {
    const list = await get(RAILS);
    const byId = Object.fromEntries(list.body.data.map((rail: { id: string }) => [rail.id, rail]));
    expect(byId.sepa).toMatchObject({
      metricsSource: "payments",
      successRate: 66.7,
      errorRate: 33.3,
      avgProcessingTime: 1.5,
      volume: 50,
    });
    expect(byId.card).toMatchObject({ metricsSource: "payments", successRate: 0, errorRate: 100, volume: 0 });
    expect(byId.ach).toMatchObject({ metricsSource: "sample", successRate: 98.5, volume: 2_500_000 });
    const detail = await get(`${RAILS}/sepa`);
    expect(detail.body.data).toMatchObject({ id: "sepa", metricsSource: "payments", successRate: 66.7, history: [] });
  });
});

describe("bad query parameters", () => {
  it("each is a 400 naming the problem, and none writes anything", async () => {
    const cases: [string, string][] = [
      [`${RAILS}/throughput?range=2h`, "range must be one of 1h, 24h, 7d, 30d"],
      [`${RAILS}/throughput?range=1h&range=24h`, "range may be given once"],
      [`${RAILS}/throughput?range=${"x".repeat(5000)}`, "range must be one of 1h, 24h, 7d, 30d"],
      [`${RAILS}/decisions?limit=0`, "limit must be a whole number from 1 to 50"],
      [`${RAILS}/decisions?limit=51`, "limit must be a whole number from 1 to 50"],
      [`${RAILS}/decisions?limit=abc`, "limit must be a whole number from 1 to 50"],
      [`${RAILS}/decisions?limit=1.5`, "limit must be a whole number from 1 to 50"],
      [`${RAILS}/decisions?limit=-1`, "limit must be a whole number from 1 to 50"],
      [`${RAILS}/metrics?days=7`, "days"],
      [`${RAILS}/throughput?rail=ach`, "rail"],
    ];
    const before = await dataItems(t.core);
    for (const [path, message] of cases) {
      const reply = await get(path);
      expect([path.slice(0, 60), reply.status, reply.body.code]).toEqual([path.slice(0, 60), 400, "validation_error"]);
      expect(reply.body.message).toContain(message);
    }
    expect(await dataItems(t.core)).toEqual(before);
  });
});

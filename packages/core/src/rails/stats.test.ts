import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import type { Currency } from "../money/model";
import { railMetrics, railsWithLiveFigures, railThroughput, listDecisions } from "./metrics";
import { explorationBand } from "./ranking";
import { attemptOutcomeItems, chooseRail, decisionItems } from "./routing";
import { readRoutingWindow } from "./stats";
import { listRails } from "./store";

/**
 * Rail statistics and decisions against DynamoDB Local, on a clock the test moves: attempt
 * outcomes written as the payments service does (the items in a transaction), the routing window
 * summing the shards, elimination and recovery through chooseRail, the throughput series, the
 * metrics, the rails' live figures, and decisions listed by scope.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let now = new Date("2026-11-26T10:30:20.000Z");
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => now });
});
afterAll(async () => {
  await ctx.dispose();
});

let paymentSeq = 0;
/** A finished attempt, committed as the payments service would (its items in one transaction). */
async function finish(
  railId: string,
  outcome: "succeeded" | "failed",
  options: {
    amountMinor?: number;
    currency?: Currency;
    seconds?: number;
    attemptNumber?: number;
    finishedAt?: string;
  } = {},
) {
  paymentSeq += 1;
  const finishedAt = options.finishedAt ?? at(0);
  const startedAt = new Date(new Date(finishedAt).getTime() - (options.seconds ?? 1) * 1000).toISOString();
  const items = attemptOutcomeItems({
    railId,
    paymentId: `pay-stat-${paymentSeq}`,
    attemptNumber: options.attemptNumber ?? 1,
    outcome,
    startedAt,
    finishedAt,
    amountMinor: options.amountMinor ?? 10_000,
    currency: options.currency ?? "USD",
    table: ctx.db.table,
  });
  await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: items }));
}

const plainId = (() => {
  for (let n = 0; ; n += 1) if (explorationBand(`pay-plain-${n}`) === null) return `pay-plain-${n}`;
})();

describe("attempt counters and the routing window", () => {
  it("sums the shards: 20 failed Card attempts take Card out of rotation, the window sliding brings it back", async () => {
    for (let i = 0; i < 20; i += 1) await finish("card", "failed", { seconds: 0.1 });
    const window = await readRoutingWindow(ctx, now);
    expect(window.get("card")).toEqual({ attempts: 20, succeeded: 0, durationMs: 2_000 });

    // (0 + 20 × 0.998) / 40 = 0.499 < 0.5 with 20 ≥ 10 attempts.
    const decision = await chooseRail(ctx, {
      paymentId: plainId,
      amountMinor: 100_000,
      currency: "USD",
      country: "US",
    });
    expect(decision.candidates.find((candidate) => candidate.railId === "card")).toMatchObject({
      eliminated: true,
      attemptsInWindow: 20,
      successRate: 0.499,
    });
    expect(decision.chosenRail).toBe("Wire");

    // 15 minutes later the failures are out of the window: Card is judged on its prior again.
    const later = new Date(now.getTime() + 15 * 60_000);
    expect((await readRoutingWindow(ctx, later)).get("card")).toBeUndefined();
    const saved = now;
    now = later;
    try {
      expect(
        (await chooseRail(ctx, { paymentId: plainId, amountMinor: 100_000, currency: "USD", country: "US" }))
          .chosenRail,
      ).toBe("Card");
    } finally {
      now = saved;
    }
  });

  it("refuses bad input to attemptOutcomeItems before anything is written", () => {
    const good = {
      railId: "ach",
      paymentId: "p",
      attemptNumber: 1,
      outcome: "succeeded" as const,
      startedAt: at(0),
      finishedAt: at(0),
      amountMinor: 1,
      currency: "USD" as const,
      table: ctx.db.table,
    };
    expect(() => attemptOutcomeItems({ ...good, railId: "NOT A RAIL" })).toThrow(RangeError);
    expect(() => attemptOutcomeItems({ ...good, finishedAt: "yesterday" })).toThrow(RangeError);
    expect(() => attemptOutcomeItems({ ...good, amountMinor: -1 })).toThrow(RangeError);
    expect(attemptOutcomeItems(good)).toHaveLength(3);
  });
});

describe("throughput, metrics and live figures", () => {
  it("counts real attempts per point, per rail, for every range", async () => {
    await finish("ach", "succeeded", { amountMinor: 12_345, seconds: 2 });
    await finish("ach", "succeeded", { amountMinor: 5_000, currency: "EUR", seconds: 1, attemptNumber: 2 });
    await finish("ach", "failed", { seconds: 3, finishedAt: at(-2 * 3_600_000) });

    const hour = await railThroughput(ctx, "1h", now);
    expect(hour).toMatchObject({
      range: "1h",
      bucketSeconds: 60,
      from: "2026-11-26T09:31:00.000Z",
      to: "2026-11-26T10:31:00.000Z",
    });
    const achHour = hour.series.find((entry) => entry.railId === "ach")!;
    expect(achHour.points).toHaveLength(60);
    expect(achHour.points.at(-1)).toEqual({ at: "2026-11-26T10:30:00.000Z", transactions: 2, succeeded: 2, failed: 0 });
    expect(achHour.points.slice(0, -1).every((point) => point.transactions === 0)).toBe(true);
    expect(hour.series.find((entry) => entry.railId === "card")!.points.at(-1)).toMatchObject({
      transactions: 20,
      failed: 20,
    });

    const day = await railThroughput(ctx, "24h", now);
    const achDay = day.series.find((entry) => entry.railId === "ach")!.points;
    expect(achDay).toHaveLength(24);
    expect(achDay.at(-1)).toEqual({ at: "2026-11-26T10:00:00.000Z", transactions: 2, succeeded: 2, failed: 0 });
    expect(achDay.at(-3)).toEqual({ at: "2026-11-26T08:00:00.000Z", transactions: 1, succeeded: 0, failed: 1 });

    const week = await railThroughput(ctx, "7d", now);
    expect(week.series[0]!.points).toHaveLength(56);
    // 3-hour points: 08:00 and 10:00 are in the 09:00-12:00 and 06:00-09:00 points.
    expect(week.series[0]!.points.at(-1)).toMatchObject({ at: "2026-11-26T09:00:00.000Z", transactions: 2 });
    expect(week.series[0]!.points.at(-2)).toMatchObject({ at: "2026-11-26T06:00:00.000Z", transactions: 1 });
    const month = await railThroughput(ctx, "30d", now);
    expect(month.series[0]!.points).toHaveLength(30);
    expect(month.series[0]!.points.at(-1)).toMatchObject({
      at: "2026-11-26T00:00:00.000Z",
      transactions: 3,
      succeeded: 2,
      failed: 1,
    });
  });

  it("metrics and the rails' live figures come from the same attempts; rails without any keep the sample figures", async () => {
    const metrics = await railMetrics(ctx, now);
    expect(metrics).toMatchObject({
      windowDays: 30,
      totalTransactions: 23,
      succeededTransactions: 2,
      failedTransactions: 21,
      successRate: 8.7,
      totalVolume: 123.45,
      volumeByCurrency: [
        { currency: "EUR", volume: "50.00", volumeMinor: 5_000, transactions: 1 },
        { currency: "USD", volume: "123.45", volumeMinor: 12_345, transactions: 1 },
      ],
      activeRails: 7,
      totalRails: 7,
      disabledRails: 0,
      monthlyThroughput: 23,
    });
    // (20 × 0.1 s + 2 + 1 + 3) / 23 attempts.
    expect(metrics.avgProcessingTime).toBeCloseTo(8 / 23, 3);
    // First attempts: 20 Card + 2 ACH (the EUR one was a retry), 1 succeeded.
    expect(metrics.firstAttemptSuccessRate).toBe(4.5);
    expect(metrics.perRail.find((rail) => rail.railId === "ach")).toMatchObject({
      transactions: 3,
      succeeded: 2,
      failed: 1,
      successRate: 66.7,
      avgProcessingTime: 2,
    });

    const rails = await railsWithLiveFigures(ctx, await listRails(ctx), now);
    expect(rails.find((rail) => rail.id === "ach")).toMatchObject({
      metricsSource: "payments",
      successRate: 66.7,
      errorRate: 33.3,
      avgProcessingTime: 2,
      volume: 123.45,
    });
    expect(rails.find((rail) => rail.id === "card")).toMatchObject({
      metricsSource: "payments",
      successRate: 0,
      errorRate: 100,
      avgProcessingTime: 0.1,
      volume: 0,
    });
    expect(rails.find((rail) => rail.id === "wire")).toMatchObject({
      metricsSource: "sample",
      successRate: 99.2,
      volume: 1_500_000,
    });
  });
});

describe("decisions", () => {
  it("stores each decision with its saving; admins list everyone's, a user only their own", async () => {
    const decide = async (
      paymentId: string,
      userId: string,
      attemptNumber: number,
      offsetMs: number,
      currency: Currency = "USD",
    ) => {
      const decision = await chooseRail(ctx, {
        paymentId,
        amountMinor: 100_000,
        currency,
        country: "US",
        ...(attemptNumber > 1 ? { excludeRailIds: ["wire"] } : {}),
      });
      await ctx.db.doc.send(
        new TransactWriteCommand({
          TransactItems: decisionItems(decision, {
            paymentId,
            userId,
            at: at(offsetMs),
            attemptNumber,
            table: ctx.db.table,
          }),
        }),
      );
      return decision;
    };
    const first = await decide(plainId, "user-a", 1, 1_000);
    await decide(plainId, "user-a", 2, 2_000);
    const other = await decide("pay-other", "user-b", 1, 3_000, "EUR");
    await decide("pay-yesterday", "user-b", 1, -86_400_000);

    const own = await listDecisions(ctx, { userId: "user-a", admin: false }, 10, now);
    expect(own.scope).toBe("own");
    expect(own.decisions.map((entry) => [entry.paymentId, entry.attemptNumber, entry.userId])).toEqual([
      [plainId, 2, "user-a"],
      [plainId, 1, "user-a"],
    ]);
    expect(own.decisions[1]!.decision).toEqual(first);
    // The retry's decision is listed but its saving is not counted again.
    expect(own.savingsByDay).toEqual([
      { day: "2026-11-26", currency: "USD", saving: first.saving, savingMinor: first.savingMinor, decisions: 1 },
    ]);

    const all = await listDecisions(ctx, { userId: "admin", admin: true }, 10, now);
    expect(all.scope).toBe("all");
    expect(all.decisions.map((entry) => entry.paymentId)).toEqual(["pay-other", plainId, plainId, "pay-yesterday"]);
    const limited = await listDecisions(ctx, { userId: "admin", admin: true }, 2, now);
    expect(limited.decisions.map((entry) => entry.paymentId)).toEqual(["pay-other", plainId]);
    expect(all.savingsByDay.find((row) => row.day === "2026-11-26" && row.currency === "EUR")).toEqual({
      day: "2026-11-26",
      currency: "EUR",
      saving: other.saving,
      savingMinor: other.savingMinor,
      decisions: 1,
    });
    expect(all.savingsByDay.filter((row) => row.day === "2026-11-25")).toHaveLength(1);

    const metrics = await railMetrics(ctx, now);
    expect(metrics.decisions).toBe(3);
    expect(metrics.savingsByCurrency.find((row) => row.currency === "EUR")?.savingMinor).toBe(other.savingMinor);
  });
});

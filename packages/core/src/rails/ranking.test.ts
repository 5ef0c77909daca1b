import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../shared/errors";
import type { Currency } from "../money/model";
import { ineligibility } from "./eligibility";
import {
  explorationBand,
  rankRails,
  EXPLORATION_MAX_GAP,
  EXPLORATION_SHARE,
  PROBE_SHARE,
  type RailWindowStats,
  type RankInput,
  type RankedRail,
} from "./ranking";
import { SEED_RAILS } from "./seed-rails";

/**
 * The pure ranking, on hand-computed numbers (the six sample rails of
 * docs/product/payment-rails.md#sample-rails, USD 1,000.00):
 *
 *   rail    cost (fixed + 0.1 %)   p      t     score = p·(100000 − cost) − 0.0001·t·100000
 *   ACH     5 + 100 = 105          0.985  1.2   0.985 × 99895 − 12 = 98384.575
 *   Wire    100 + 100 = 200        0.992  0.5   0.992 × 99800 − 5  = 98996.6
 *   Card    10 + 100 = 110         0.998  0.1   0.998 × 99890 − 1  = 99689.22
 *   SWIFT   500 + 100 = 600        0.99   2     0.99 × 99400 − 20  = 98386
 *   SEPA    2 + 100 = 102          0.988  1     0.988 × 99898 − 10 = 98689.224
 *   Crypto  20 + 100 = 120         0.955  0.3   0.955 × 99880 − 3  = 95382.4
 *
 * (SEPA's fixed fee is EUR 0.02, 2.17 US cents at the reference rate: 2.) The scoring tests widen
 * the six rails to carry every currency everywhere, so they test scores alone; eligibility has
 * its own tests below, on the seeded rails as they are.
 */

const seeded: RankedRail[] = SEED_RAILS.map((rail) => ({ ...rail }));
const rails: RankedRail[] = seeded
  .filter((rail) => rail.id !== "upi")
  .map((rail) => ({
    ...rail,
    currencies: ["USD", "EUR", "GBP", "JPY", "INR"],
    countries: ["WORLDWIDE"],
    minAmountMinor: 0,
    maxAmountMinor: null,
  }));
const now = new Date("2026-11-26T04:00:00.000Z");
const empty = new Map<string, RailWindowStats>();

/** The first ids of the form `${prefix}-<n>` that fall in the given exploration band. */
function idsIn(band: ReturnType<typeof explorationBand>, count = 1, prefix = "pay"): string[] {
  const ids: string[] = [];
  for (let n = 0; ids.length < count; n += 1)
    if (explorationBand(`${prefix}-${n}`) === band) ids.push(`${prefix}-${n}`);
  return ids;
}
const [plainId] = idsIn(null) as [string];
const [exploreId] = idsIn("explore") as [string];
const [probeId] = idsIn("probe") as [string];

const rank = (overrides: Partial<RankInput> = {}) =>
  rankRails({
    rails,
    window: empty,
    now,
    paymentId: plainId,
    amountMinor: 100_000,
    currency: "USD",
    country: "US",
    ...overrides,
  });
const refusal = (run: () => unknown): { status: number; code: string; message: string } => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("expected value ranking", () => {
  it("scores every rail as the hand-computed table and picks the highest (Card), saving against the first active rail (ACH)", () => {
    const decision = rank();
    const scores = Object.fromEntries(decision.candidates.map((candidate) => [candidate.rail, candidate.score]));
    expect(scores.ACH).toBeCloseTo(98384.58, 1);
    expect(scores).toMatchObject({ Wire: 98996.6, Card: 99689.22, SWIFT: 98386, Crypto: 95382.4 });
    expect(scores.SEPA).toBeCloseTo(98689.22, 2);
    expect(decision.candidates.map((candidate) => candidate.costMinor)).toEqual([105, 200, 110, 600, 102, 120]);
    // Card costs 0.05 more than ACH: a pricier choice is no saving, and never a negative one.
    expect(decision).toMatchObject({
      strategy: "expected_value",
      chosenRail: "Card",
      defaultRail: "ACH",
      savingMinor: 0,
      saving: "0.00",
      currency: "USD",
      amountMinor: 100_000,
      decidedAt: now.toISOString(),
    });
    expect(decision.reason).toContain("Card has the highest expected value");
    expect(decision.candidates.find((candidate) => candidate.rail === "Card")?.note).toMatch(/^Chosen/);
    expect(decision.candidates.find((candidate) => candidate.rail === "Wire")?.note).toBe(
      "Lower expected value than Card",
    );
  });

  it("prices with THE cost formula in the payment currency (EUR: nothing converted, no FX spread; USD fees at 0.92)", () => {
    // EUR 1,000.00: ACH USD 0.05 -> 4.6 -> 5 + 100 = 105; Wire 92 + 100; Card 9.2 -> 9 + 100;
    // SWIFT 460 + 100; SEPA 2 + 100; Crypto 18.4 -> 18 + 100.
    const decision = rank({ currency: "EUR", country: "DE" });
    expect(decision.candidates.map((candidate) => [candidate.rail, candidate.costMinor])).toEqual([
      ["ACH", 105],
      ["Wire", 192],
      ["Card", 109],
      ["SWIFT", 560],
      ["SEPA", 102],
      ["Crypto", 118],
    ]);
    expect(decision.chosenRail).toBe("Card");
    expect(decision.savingMinor).toBe(0);
  });

  it("learns from the window with a prior of weight 20: 15 of 30 Card attempts failing moves the pick to Wire", () => {
    // Card: p = (15 + 20 × 0.998) / 50 = 0.6992, t = (3 s + 20 × 0.1) / 50 = 0.1;
    // score = 0.6992 × 99890 − 1 = 69842.088.
    const decision = rank({ window: new Map([["card", { attempts: 30, succeeded: 15, durationMs: 3_000 }]]) });
    const card = decision.candidates.find((candidate) => candidate.rail === "Card")!;
    expect(card).toMatchObject({
      successRate: 0.6992,
      attemptsInWindow: 30,
      avgProcessingTime: 0.1,
      score: 69842.09,
      eliminated: false,
    });
    expect(decision.chosenRail).toBe("Wire");
  });

  it("one failed attempt moves the estimate by the prior's weight, not to 0: Card 0.9505, and successes bring it back", () => {
    // p = (0 + 19.96) / 21 = 0.95048 (not 0 % as one sample alone would say); score 0.95048 × 99890 − 1 ≈ 94942.4,
    // below Wire's 98996.6: on large amounts success dominates the value, so Wire leads until Card's estimate recovers.
    const decision = rank({ window: new Map([["card", { attempts: 1, succeeded: 0, durationMs: 100 }]]) });
    expect(decision.candidates.find((candidate) => candidate.rail === "Card")?.successRate).toBe(0.9505);
    expect(decision.candidates.find((candidate) => candidate.rail === "Card")?.eliminated).toBe(false);
    expect(decision.chosenRail).toBe("Wire");
    // Ten successes in the window: (10 + 19.96) / 30 = 0.9987, Card first again.
    const back = rank({ window: new Map([["card", { attempts: 10, succeeded: 10, durationMs: 1_000 }]]) });
    expect(back.chosenRail).toBe("Card");
  });

  it("penalises average time: equal rails apart from time rank the faster first", () => {
    const twins: RankedRail[] = [
      { ...rails[0]!, id: "slow", name: "Slow", avgProcessingTime: 3 },
      { ...rails[0]!, id: "fast", name: "Fast", avgProcessingTime: 0.5 },
    ];
    const decision = rank({ rails: twins });
    expect(decision.chosenRail).toBe("Fast");
    expect(decision.candidates[0]!.score).toBeCloseTo(0.985 * 99_895 - 30, 1);
    expect(decision.candidates[1]!.score).toBeCloseTo(0.985 * 99_895 - 5, 1);
  });
});

describe("forceRail and preferredRail", () => {
  it("forceRail (by name, any case) overrides the score, even on an eliminated rail", () => {
    const window = new Map([["swift", { attempts: 40, succeeded: 0, durationMs: 0 }]]);
    const decision = rank({ forceRail: " swift ", window });
    expect(decision).toMatchObject({ strategy: "forced", chosenRail: "SWIFT", defaultRail: "ACH", savingMinor: 0 });
    expect(decision.reason).toContain("forces SWIFT");
    expect(decision.candidates.find((candidate) => candidate.rail === "SWIFT")?.note).toBe(
      "Chosen (forced); out of rotation",
    );
  });

  it("forceRail naming a stopped, unknown or already tried rail is 422 rail_not_available naming it", () => {
    const stopped = rails.map((rail) => (rail.id === "wire" ? { ...rail, status: "down" as const } : rail));
    expect(refusal(() => rank({ rails: stopped, forceRail: "Wire" }))).toEqual({
      status: 422,
      code: "rail_not_available",
      message: 'Rail "Wire" is not available: its status is down',
    });
    expect(refusal(() => rank({ forceRail: "Pigeon" }))).toEqual({
      status: 422,
      code: "rail_not_available",
      message: 'Rail "Pigeon" is not available: no rail has that name',
    });
    expect(refusal(() => rank({ forceRail: "ACH", excludeRailIds: ["ach"] })).message).toBe(
      'Rail "ACH" is not available: it was already tried for this payment',
    );
  });

  it("no active rail is 422 no_rail_available", () => {
    const allDown = rails.map((rail) => ({ ...rail, status: "maintenance" as const }));
    expect(refusal(() => rank({ rails: allDown })).code).toBe("no_rail_available");
    expect(refusal(() => rank({ excludeRailIds: rails.map((rail) => rail.id) })).code).toBe("no_rail_available");
  });

  it("preferredRail wins when active and in rotation, even for a payment in the exploration share", () => {
    const decision = rank({ preferredRail: "sepa", paymentId: exploreId });
    expect(decision).toMatchObject({ strategy: "preferred", chosenRail: "SEPA", savingMinor: 3 });
    expect(decision.candidates.find((candidate) => candidate.rail === "Card")?.note).toBe(
      "Best expected value, not used: the request prefers SEPA",
    );
  });

  it("a preferred rail that is eliminated, stopped or unknown is not used, and the reason says why", () => {
    const window = new Map([["sepa", { attempts: 30, succeeded: 0, durationMs: 0 }]]);
    expect(rank({ preferredRail: "SEPA", window }).reason).toContain(
      'The preferred rail "SEPA" was not used: it is out of rotation',
    );
    const stopped = rails.map((rail) => (rail.id === "sepa" ? { ...rail, status: "down" as const } : rail));
    const decision = rank({ preferredRail: "SEPA", rails: stopped });
    expect(decision).toMatchObject({ strategy: "expected_value", chosenRail: "Card" });
    expect(decision.reason).toContain("its status is down");
    expect(rank({ preferredRail: "x".repeat(500) }).reason).toContain(
      `"${"x".repeat(40)}" was not used: no rail has that name`,
    );
  });
});

describe("elimination and recovery", () => {
  const failing = (attempts: number, succeeded = 0) =>
    new Map([["card", { attempts, succeeded, durationMs: attempts * 100 }]]);

  it("takes a rail out below 50 % with at least 10 attempts in the window", () => {
    // 30 failures: (0 + 19.96) / 50 = 0.3992 < 0.5.
    const decision = rank({ window: failing(30) });
    const card = decision.candidates.find((candidate) => candidate.rail === "Card")!;
    expect(card).toMatchObject({ eliminated: true, successRate: 0.3992, attemptsInWindow: 30 });
    expect(card.note).toBe(
      "Out of rotation: success estimate 39.9 % over 30 attempts in the last 15 min is below 50 %",
    );
    expect(decision.chosenRail).toBe("Wire");
  });

  it("needs the minimum number of attempts: a rail configured at 40 % with 5 failures stays in", () => {
    const weak = rails.map((rail) => (rail.id === "crypto" ? { ...rail, successRate: 40 } : rail));
    // (0 + 8) / 25 = 0.32 < 0.5, but 5 attempts < 10.
    const decision = rank({ rails: weak, window: new Map([["crypto", { attempts: 5, succeeded: 0, durationMs: 0 }]]) });
    expect(decision.candidates.find((candidate) => candidate.rail === "Crypto")).toMatchObject({
      eliminated: false,
      successRate: 0.32,
    });
    // The boundary: 9 failures stay in ((0 + 8) / 29 = 0.276), exactly 10 are out ((0 + 8) / 30 = 0.267).
    const at = (attempts: number) =>
      rank({ rails: weak, window: new Map([["crypto", { attempts, succeeded: 0, durationMs: 0 }]]) }).candidates.find(
        (candidate) => candidate.rail === "Crypto",
      )?.eliminated;
    expect([at(9), at(10)]).toEqual([false, true]);
  });

  it("recovers as the window slides (failures age out) and through probes that succeed", () => {
    expect(rank({ window: failing(30) }).chosenRail).toBe("Wire");
    // The window slid past the failures: judged on the prior again.
    expect(rank({ window: empty }).chosenRail).toBe("Card");
    // Probes: a payment in the probe share tests the eliminated rail ...
    const probe = rank({ window: failing(30), paymentId: probeId });
    expect(probe).toMatchObject({ strategy: "exploration", chosenRail: "Card" });
    expect(probe.reason).toContain("probe share");
    expect(probe.candidates.find((candidate) => candidate.rail === "Card")?.note).toBe(
      "Chosen (exploration); out of rotation, tried as a probe",
    );
    // ... and once probes succeed the estimate climbs back over the threshold: (12 + 19.96) / 50 = 0.639.
    const recovered = rank({ window: failing(30, 12) });
    expect(recovered.candidates.find((candidate) => candidate.rail === "Card")?.eliminated).toBe(false);
  });

  it("with every available rail eliminated, the static fallback order picks the first", () => {
    const window = new Map(rails.map((rail) => [rail.id, { attempts: 50, succeeded: 0, durationMs: 0 }]));
    const decision = rank({ window });
    expect(decision).toMatchObject({ strategy: "expected_value", chosenRail: "ACH", savingMinor: 0 });
    expect(decision.reason).toContain("static fallback order");
    expect(decision.candidates[0]!.note).toBe(
      "Chosen (static fallback order: every available rail is out of rotation)",
    );
  });
});

describe("exploration", () => {
  const ids = Array.from({ length: 2_000 }, (_, n) => `pay_${n.toString(36)}_${(n * 7919).toString(16)}`);

  it("sends a bounded share (about 10 %) of 2,000 payments to a non-best rail, the same on every run", () => {
    const first = ids.map((paymentId) => rank({ paymentId }));
    const again = ids.map((paymentId) => rank({ paymentId }));
    expect(again).toEqual(first);
    const explored = first.filter((decision) => decision.strategy === "exploration");
    // Binomial(2000, 0.1): mean 200, sd 13.4; ±4 sd.
    expect(explored.length).toBeGreaterThan(2_000 * EXPLORATION_SHARE - 54);
    expect(explored.length).toBeLessThan(2_000 * EXPLORATION_SHARE + 54);
    expect(explored.every((decision) => decision.chosenRail !== "Card")).toBe(true);
    // Only rails within EXPLORATION_MAX_GAP (1 % of 1,000.00 = 1000) of Card's 99689.22 are explored:
    // Wire (98996.6) and SEPA (98689.224); ACH, SWIFT and Crypto are further behind.
    expect(new Set(explored.map((decision) => decision.chosenRail))).toEqual(new Set(["Wire", "SEPA"]));
    // With no eliminated rail the probe share routes by value.
    const probes = ids.filter((paymentId) => explorationBand(paymentId) === "probe");
    expect(probes.length).toBeLessThan(2_000 * PROBE_SHARE + 30);
    for (const paymentId of probes.slice(0, 5)) expect(rank({ paymentId }).strategy).toBe("expected_value");
  });

  it("never explores a retry: it takes the next best", () => {
    const retry = rank({ paymentId: exploreId, excludeRailIds: ["card"] });
    expect(retry).toMatchObject({ strategy: "expected_value", chosenRail: "Wire", defaultRail: "ACH" });
    expect(retry.reason).toMatch(/^Retry after a failed attempt: Wire has the highest/);
    expect(retry.candidates.find((candidate) => candidate.rail === "Card")?.note).toBe(
      "Not routable: it was already tried for this payment",
    );
    expect(rank({ paymentId: exploreId }).strategy).toBe("exploration");
  });
});

describe("properties over random windows, amounts and ids", () => {
  const windowArb = fc.array(
    fc.nat({ max: 60 }).chain((attempts) =>
      fc.record({
        attempts: fc.constant(attempts),
        succeeded: fc.nat({ max: attempts }),
        durationMs: fc.nat({ max: attempts * 3_000 }),
      }),
    ),
    { minLength: rails.length, maxLength: rails.length },
  );
  const statusArb = fc.array(
    fc.constantFrom("active", "active", "active", "down", "maintenance") as fc.Arbitrary<RankedRail["status"]>,
    { minLength: rails.length, maxLength: rails.length },
  );

  it("the chosen rail is available; by value it is the top score; exploration never takes the top; saving = default cost − chosen cost", () => {
    fc.assert(
      fc.property(
        windowArb,
        statusArb,
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.constantFrom("USD", "EUR", "GBP", "JPY") as fc.Arbitrary<"USD">,
        fc.string({ maxLength: 20 }),
        fc.subarray(rails.map((rail) => rail.id)),
        (stats, statuses, amountMinor, currency, paymentId, excluded) => {
          const railsNow = rails.map((rail, index) => ({ ...rail, status: statuses[index]! }));
          const window = new Map(rails.map((rail, index) => [rail.id, stats[index]!]));
          const available = railsNow.filter((rail) => rail.status === "active" && !excluded.includes(rail.id));
          let decision: ReturnType<typeof rankRails>;
          try {
            decision = rankRails({
              rails: railsNow,
              window,
              now,
              paymentId,
              amountMinor,
              currency,
              country: "US",
              excludeRailIds: excluded,
            });
          } catch (error) {
            expect(available).toHaveLength(0);
            expect((error as AppError).code).toBe("no_rail_available");
            return;
          }
          expect(available.map((rail) => rail.id)).toContain(decision.chosenRailId);
          const byId = new Map(decision.candidates.map((candidate) => [candidate.railId, candidate]));
          const eligible = available.map((rail) => byId.get(rail.id)!).filter((candidate) => !candidate.eliminated);
          const top = Math.max(...eligible.map((candidate) => candidate.score));
          const chosen = byId.get(decision.chosenRailId)!;
          if (decision.strategy === "expected_value" && eligible.length > 0) expect(chosen.score).toBe(top);
          if (decision.strategy === "exploration") {
            expect(excluded).toHaveLength(0);
            if (chosen.eliminated) expect(explorationBand(paymentId)).toBe("probe");
            else {
              expect(explorationBand(paymentId)).toBe("explore");
              // Not the top rail (unless another rail ties with it on score), and within the cap of it.
              expect(chosen.score < top || eligible.filter((candidate) => candidate.score === top).length > 1).toBe(
                true,
              );
              expect(top - chosen.score).toBeLessThanOrEqual(EXPLORATION_MAX_GAP * amountMinor + 0.01);
            }
          }
          for (const candidate of decision.candidates) {
            const stat = window.get(candidate.railId)!;
            const rail = railsNow.find((entry) => entry.id === candidate.railId)!;
            const estimate = (stat.succeeded + 20 * (rail.successRate / 100)) / (stat.attempts + 20);
            expect(candidate.eliminated).toBe(rail.status === "active" && stat.attempts >= 10 && estimate < 0.5);
          }
          expect(decision.defaultRailId).toBe(available[0]!.id);
          expect(decision.savingMinor).toBe(
            Math.max(0, byId.get(decision.defaultRailId)!.costMinor - chosen.costMinor),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("eligibility: routing ranks only rails that can carry the payment", () => {
  const COUNTRIES = ["US", "DE", "FR", "GB", "IN", "JP", "BR", "CH", "NG", "MX"];
  const CURRENCIES: Currency[] = ["USD", "EUR", "GBP", "JPY", "INR"];

  it("property: over random currencies, countries, amounts, statuses and retries, the chosen rail is eligible; a refusal means none was", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...COUNTRIES),
        fc.integer({ min: 1, max: 100_000_000_000 }),
        fc.array(fc.constantFrom("active", "active", "down") as fc.Arbitrary<"active" | "down">, {
          minLength: seeded.length,
          maxLength: seeded.length,
        }),
        fc.subarray(
          seeded.map((rail) => rail.id),
          { maxLength: 2 },
        ),
        fc.string({ maxLength: 12 }),
        (currency, country, amountMinor, statuses, tried, paymentId) => {
          const railsNow = seeded.map((rail, index) => ({ ...rail, status: statuses[index]! }));
          const payment = { amountMinor, currency, country };
          const routable = railsNow.filter((rail) => rail.status === "active" && !tried.includes(rail.id));
          const carrying = routable.filter((rail) => ineligibility(rail, payment) === null);
          let decision: ReturnType<typeof rankRails>;
          try {
            decision = rankRails({ rails: railsNow, window: empty, now, paymentId, ...payment, excludeRailIds: tried });
          } catch (error) {
            expect(carrying).toHaveLength(0);
            expect((error as AppError).code).toBe(routable.length === 0 ? "no_rail_available" : "no_eligible_rail");
            return;
          }
          const chosen = railsNow.find((rail) => rail.id === decision.chosenRailId)!;
          expect(ineligibility(chosen, payment)).toBeNull();
          expect(carrying.map((rail) => rail.id)).toContain(chosen.id);
          expect(decision.defaultRailId).toBe(carrying[0]!.id);
          // Every rail that cannot carry it is listed with its reason.
          expect(decision.excluded.map((entry) => entry.railId).sort()).toEqual(
            railsNow
              .filter((rail) => ineligibility(rail, payment) !== null)
              .map((rail) => rail.id)
              .sort(),
          );
          expect(decision.savingMinor).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a USD payment in the US never goes over SEPA, a EUR payment to Germany never over ACH, a US beneficiary never over SEPA", () => {
    const usd = rankRails({
      rails: seeded,
      window: empty,
      now,
      paymentId: plainId,
      amountMinor: 4_250,
      currency: "USD",
      country: "US",
    });
    expect(usd.excluded).toContainEqual({ railId: "sepa", rail: "SEPA", reason: "SEPA carries EUR only" });
    expect(usd.candidates.find((candidate) => candidate.rail === "SEPA")?.note).toBe(
      "Not eligible: SEPA carries EUR only",
    );
    const eur = rankRails({
      rails: seeded,
      window: empty,
      now,
      paymentId: plainId,
      amountMinor: 100_000,
      currency: "EUR",
      country: "DE",
    });
    expect(eur.chosenRail).not.toBe("ACH");
    expect(eur.excluded.map((entry) => entry.rail)).toEqual(expect.arrayContaining(["ACH", "Wire", "UPI"]));
    const retry = rankRails({
      rails: seeded,
      window: empty,
      now,
      paymentId: plainId,
      amountMinor: 4_250,
      currency: "USD",
      country: "US",
      excludeRailIds: ["card"],
    });
    expect(retry.chosenRail).not.toBe("SEPA");
  });

  it("a forced rail that cannot carry the payment is 422 rail_ineligible with the reason; none eligible is 422 no_eligible_rail", () => {
    expect(
      refusal(() =>
        rankRails({
          rails: seeded,
          window: empty,
          now,
          paymentId: plainId,
          amountMinor: 4_250,
          currency: "USD",
          country: "US",
          forceRail: "sepa",
        }),
      ),
    ).toEqual({
      status: 422,
      code: "rail_ineligible",
      message: "Rail SEPA cannot carry this payment: SEPA carries EUR only",
    });
    const none = refusal(() =>
      rankRails({
        rails: seeded.filter((rail) => rail.id === "sepa" || rail.id === "ach"),
        window: empty,
        now,
        paymentId: plainId,
        amountMinor: 100,
        currency: "INR",
        country: "IN",
      }),
    );
    expect(none).toMatchObject({ status: 422, code: "no_eligible_rail" });
    expect(none.message).toBe("No payment rail can carry this payment: ACH carries USD only; SEPA carries EUR only");
  });

  it("UPI carries INR to India up to 1,00,000; above it SWIFT does", () => {
    expect(
      rankRails({
        rails: seeded,
        window: empty,
        now,
        paymentId: plainId,
        amountMinor: 250_000,
        currency: "INR",
        country: "IN",
      }).chosenRail,
    ).toBe("UPI");
    const large = rankRails({
      rails: seeded,
      window: empty,
      now,
      paymentId: plainId,
      amountMinor: 20_000_000,
      currency: "INR",
      country: "IN",
    });
    expect(large.chosenRail).toBe("SWIFT");
    expect(large.excluded).toContainEqual({
      railId: "upi",
      rail: "UPI",
      reason: "UPI carries at most 100000.00 INR per payment",
    });
  });

  it("a retry may go to any eligible rail, whatever its fee (the payer is charged at most the fee held)", () => {
    // USD 42.50 after Card and ACH failed: Wire (1.04) is next, though it costs more than either.
    const retry = rankRails({
      rails: seeded,
      window: empty,
      now,
      paymentId: plainId,
      amountMinor: 4_250,
      currency: "USD",
      country: "US",
      excludeRailIds: ["card", "ach"],
    });
    expect(retry.chosenRail).toBe("Wire");
    expect(retry.excluded.map((entry) => entry.rail)).not.toContain("Wire");
  });

  it("exploration never picks a rail worse than the best by more than the cap: 42.50 never explores to Wire", () => {
    const ids = idsIn("explore", 200, "cap");
    for (const paymentId of ids) {
      const decision = rankRails({
        rails: seeded,
        window: empty,
        now,
        paymentId,
        amountMinor: 4_250,
        currency: "USD",
        country: "US",
      });
      expect(decision.chosenRail).not.toBe("Wire");
      const top = Math.max(
        ...decision.candidates
          .filter((candidate) => !decision.excluded.some((entry) => entry.railId === candidate.railId))
          .map((candidate) => candidate.score),
      );
      expect(
        top - decision.candidates.find((candidate) => candidate.railId === decision.chosenRailId)!.score,
      ).toBeLessThanOrEqual(EXPLORATION_MAX_GAP * 4_250 + 0.01);
    }
  });
});

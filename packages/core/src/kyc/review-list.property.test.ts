import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { KYC_STATUSES, PRIORITIES, type KycSubmission } from "./model";
import { listSubmissions } from "./review-list";
import { exportSubmissions } from "./review-export";
import { REVIEW_PERIOD_MS, REVIEW_PERIODS, type ReviewFilters } from "./review-model";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { changeSubmission, SYSTEM_ACTOR } from "./submissions";

/**
 * The dashboard list against an independent oracle: submissions with random countries,
 * priorities, statuses, names and ages up to 120 days are written through the store; for random
 * filters and page sizes, paging with the cursor to the end must give exactly the oracle's
 * answer (filter the submissions in memory, sort by submitted_at then id, newest first): no row
 * lost or repeated at page boundaries, whatever the FilterExpression and the in-code search drop
 * from each DynamoDB page; `total` and the export agree with it.
 */

const DAY = 24 * 3_600_000;
const COUNTRIES = ["IN", "BR", "DE"] as const;
const NAMES = ["Asha Rao", "Ravi Kumar", "Mei Lin", "Ana Souza", "Jonas Weber"] as const;
const SUBMISSIONS = 36;

let ctx: Awaited<ReturnType<typeof createTestContext>>;
const base = Date.now();
let offset = 0;
const stored: KycSubmission[] = [];

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(base + offset) });
  const random = fc.sample(
    fc.record({
      ageMinutes: fc.integer({ min: 0, max: 120 * 24 * 60 }),
      country: fc.constantFrom(...COUNTRIES),
      name: fc.constantFrom(...NAMES),
      status: fc.constantFrom(...KYC_STATUSES),
      priority: fc.constantFrom(...PRIORITIES),
    }),
    { numRuns: SUBMISSIONS, seed: 20260115 },
  );
  for (const spec of random) {
    offset = -spec.ageMinutes * 60_000;
    const started = await seedSubmission(ctx, { userId: randomUUID(), name: spec.name, country: spec.country });
    // Status and priority set straight through the store: the list must show what is stored.
    stored.push(
      await changeSubmission(ctx, started.id, (current) => ({
        next: { ...current, status: spec.status, priority: spec.priority },
        entries: [
          { actor: SYSTEM_ACTOR, action: "seeded", from: current.status, to: spec.status, note: null, event: null },
        ],
      })),
    );
  }
  offset = 0;
});
afterAll(async () => ctx.dispose());

function oracle(filters: ReviewFilters): string[] {
  const since = filters.period ? new Date(base - REVIEW_PERIOD_MS[filters.period]).toISOString() : "";
  return stored
    .filter(
      (submission) =>
        (!filters.status || submission.status === filters.status) &&
        (!filters.country || submission.country === filters.country) &&
        (!filters.priority || submission.priority === filters.priority) &&
        submission.submitted_at >= since &&
        (!filters.search ||
          [submission.name, submission.email, submission.id, submission.user_id].some((text) =>
            text.toLowerCase().includes(filters.search!),
          )),
    )
    .sort((a, b) => (`${b.submitted_at}#${b.id}` < `${a.submitted_at}#${a.id}` ? -1 : 1))
    .map((submission) => submission.id);
}

const filtersArbitrary = fc.record(
  {
    status: fc.constantFrom(...KYC_STATUSES),
    country: fc.constantFrom(...COUNTRIES),
    priority: fc.constantFrom(...PRIORITIES),
    period: fc.constantFrom(...REVIEW_PERIODS),
    search: fc.constantFrom("asha", "RAO", "a", "lin", "zz", "souza"),
  },
  { requiredKeys: [] },
);

describe("the dashboard list against an oracle", () => {
  it("pages to exactly the oracle's rows, newest first, with the oracle's total", async () => {
    await fc.assert(
      fc.asyncProperty(filtersArbitrary, fc.integer({ min: 1, max: 7 }), async (filters, limit) => {
        const query: ReviewFilters = {
          ...filters,
          ...(filters.search ? { search: filters.search.toLowerCase() } : {}),
        };
        const expected = oracle(query);
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page = await listSubmissions(ctx, { ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) });
          expect(page.total).toBe(expected.length);
          expect(page.data.length).toBeLessThanOrEqual(limit);
          seen.push(...page.data.map((row) => row.id));
          cursor = page.next_cursor;
          expect(page.has_more).toBe(cursor !== null);
        } while (cursor);
        expect(seen).toEqual(expected);
      }),
      { numRuns: 30, seed: 42 },
    );
  });

  it("exports the same rows as the list", async () => {
    const filters = { country: "IN", period: "90d" } as const;
    const csv = (await exportSubmissions(ctx, filters)).csv.trim().split("\n").slice(1);
    expect(csv.map((line) => line.split(",")[0])).toEqual(oracle(filters));
  });
});

it("spreads the seeded submissions over every filter value (the property is not vacuous)", () => {
  for (const status of KYC_STATUSES)
    expect(
      stored.some((submission) => submission.status === status),
      status,
    ).toBe(true);
  for (const country of COUNTRIES)
    expect(
      stored.some((submission) => submission.country === country),
      country,
    ).toBe(true);
  expect(stored.some((submission) => Date.parse(submission.submitted_at) < base - 90 * DAY)).toBe(true);
  expect(stored.some((submission) => Date.parse(submission.submitted_at) > base - DAY)).toBe(true);
});

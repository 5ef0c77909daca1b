import { PutCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { railKey, railPartition, railRegistryKey } from "./keys";
import { RailEditInput } from "./edit-form";
import { SEED_RAILS } from "./seed-rails";
import { getRail, listRails, railHistory, setRailRunning, updateRail } from "./store";

/**
 * The rails store against DynamoDB Local: seeded exactly once however many instances race to
 * seed, edits and start/stop conditional on the version read (a stale one is a 409 and writes
 * nothing), every change recorded with who, when, before and after.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
const others: TestContext[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  // Five more instances over the same table, each with its own client (as five Lambdas would).
  for (let i = 0; i < 5; i += 1) others.push(await createTestContext({ TABLE_NAME: ctx.db.table }));
});
afterAll(async () => {
  for (const other of others) other.db.raw.destroy();
  await ctx.dispose();
});

const railItems = async () =>
  ((await ctx.db.doc.send(new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true }))).Items ?? []).filter(
    (item) => String(item.pk).startsWith("RAIL"),
  );

const edit = (overrides: Record<string, unknown> = {}) =>
  RailEditInput.parse({
    name: "ACH",
    type: "ACH",
    status: "active",
    fixedFee: "0.05",
    fxSpreadPercent: "1",
    slaTarget: 99.9,
    ...overrides,
  });

describe("seeding", () => {
  it("seeds the seven rails once when six instances read at the same time", async () => {
    const lists = await Promise.all([ctx, ...others].map((instance) => listRails(instance)));
    for (const rails of lists)
      expect(rails.map((rail) => rail.id)).toEqual(["ach", "wire", "card", "swift", "sepa", "crypto", "upi"]);
    const items = await railItems();
    // The registry and seven rails: nothing written twice, no stray items.
    expect(items).toHaveLength(8);
    expect(items.filter((item) => item.sk === "META")).toHaveLength(7);
    expect(items.find((item) => item.pk === railRegistryKey().pk)?.ids).toEqual(SEED_RAILS.map((rail) => rail.id));
    const [first] = lists;
    expect(
      first!.every((rail) => rail.version === 1 && rail.lastChange === null && rail.metricsSource === "sample"),
    ).toBe(true);
    // Every instance saw the same stored rails (the same seeding time: one seed won).
    for (const rails of lists) expect(rails).toEqual(first);
  });

  it("carries the documented table: FX spread as fractions, fees in cents, SLA 99.9", async () => {
    const rails = await listRails(ctx);
    expect(
      rails.map((rail) => [
        rail.name,
        rail.costMinor,
        rail.fixedFee,
        rail.fxSpread,
        rail.successRate,
        rail.avgProcessingTime,
        rail.volume,
        rail.slaTarget,
      ]),
    ).toEqual([
      ["ACH", 25, "0.05", 0.01, 98.5, 1.2, 2_500_000, 99.9],
      ["Wire", 1500, "1.00", 0.02, 99.2, 0.5, 1_500_000, 99.9],
      ["Card", 250, "0.10", 0.005, 99.8, 0.1, 5_000_000, 99.9],
      ["SWIFT", 2500, "5.00", 0.03, 99, 2, 800_000, 99.9],
      ["SEPA", 50, "0.02", 0.008, 98.8, 1, 600_000, 99.9],
      ["Crypto", 100, "0.20", 0.05, 95.5, 0.3, 300_000, 99.9],
      ["UPI", 1, "0.00", 0.01, 98.2, 0.4, 400_000, 99.9],
    ]);
    expect(
      rails.map((rail) => [
        rail.name,
        rail.currencies.join(" "),
        rail.countries.join(" "),
        rail.feeCurrency,
        rail.maxAmount,
        rail.settlementSeconds,
      ]),
    ).toEqual([
      ["ACH", "USD", "US", "USD", "1000000.00", 86_400],
      ["Wire", "USD", "US", "USD", null, 14_400],
      ["Card", "USD EUR GBP JPY", "WORLDWIDE", "USD", "10000.00", 1_800],
      ["SWIFT", "USD EUR GBP JPY INR", "WORLDWIDE", "USD", null, 172_800],
      ["SEPA", "EUR", "SEPA", "EUR", null, 86_400],
      ["Crypto", "USD EUR", "WORLDWIDE", "USD", "100000.00", 600],
      ["UPI", "INR", "IN", "INR", "100000.00", 30],
    ]);
    expect(rails.every((rail) => rail.status === "active")).toBe(true);
  });

  it("never re-seeds over an admin's change", async () => {
    await setRailRunning(ctx, "crypto", false, "admin@example.com");
    expect((await listRails(others[0]!)).find((rail) => rail.id === "crypto")?.status).toBe("down");
    await setRailRunning(ctx, "crypto", true, "admin@example.com");
  });
});

describe("changes", () => {
  it("an edit is versioned and recorded with who, when, before and after", async () => {
    const before = await getRail(ctx, "sepa");
    const saved = await updateRail(
      ctx,
      "sepa",
      edit({
        name: "SEPA",
        type: "SEPA",
        fixedFee: "0.03",
        fxSpreadPercent: "0.75",
        errorInjectionPercent: 2.5,
        version: before.version,
      }),
      "admin@example.com",
    );
    expect(saved).toMatchObject({
      version: before.version + 1,
      fixedFee: "0.03",
      fixedFeeMinor: 3,
      fxSpread: 0.0075,
      errorInjection: 0.025,
      updated_by: "admin@example.com",
    });
    expect(saved.lastChange).toMatchObject({
      action: "update",
      by: "admin@example.com",
      before: { fixedFee: "0.02", fixedFeeMinor: 2, fxSpread: 0.008, errorInjection: 0 },
      after: { fixedFee: "0.03", fixedFeeMinor: 3, fxSpread: 0.0075, errorInjection: 0.025 },
    });
    expect(await getRail(others[1]!, "sepa")).toEqual(saved);
    expect((await railHistory(ctx, "sepa"))[0]).toEqual(saved.lastChange);
  });

  it("a stale version is a 409 and writes nothing", async () => {
    const current = await getRail(ctx, "wire");
    await updateRail(
      ctx,
      "wire",
      edit({ name: "Wire", type: "Wire", fixedFee: "2", version: current.version }),
      "first@example.com",
    );
    const itemsBefore = await railItems();
    await expect(
      updateRail(
        ctx,
        "wire",
        edit({ name: "Wire", type: "Wire", fixedFee: "3", version: current.version }),
        "second@example.com",
      ),
    ).rejects.toMatchObject({ status: 409, code: "rail_changed" });
    expect(await railItems()).toEqual(itemsBefore);
  });

  it("of concurrent edits from the same version, exactly one wins; the others are 409s", async () => {
    const current = await getRail(ctx, "card");
    const outcomes = await Promise.allSettled(
      [ctx, ...others].map((instance, index) =>
        updateRail(
          instance,
          "card",
          edit({ name: "Card", type: "Card", fixedFee: `0.${10 + index}`, version: current.version }),
          `admin${index}@example.com`,
        ),
      ),
    );
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const outcome of outcomes)
      if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ status: 409 });
    const after = await getRail(ctx, "card");
    expect(after.version).toBe(current.version + 1);
    const history = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": railPartition("card"), ":p": "CHG#" },
        ConsistentRead: true,
      }),
    );
    expect(history.Items).toHaveLength(1);
  });

  it("start and stop set active and down, record it, and do nothing when already there", async () => {
    const stopped = await setRailRunning(ctx, "ach", false, "ops@example.com");
    expect(stopped).toMatchObject({
      status: "down",
      updated_by: "ops@example.com",
      lastChange: { action: "stop", before: { status: "active" }, after: { status: "down" } },
    });
    const again = await setRailRunning(ctx, "ach", false, "other@example.com");
    expect(again).toEqual(stopped);
    const started = await setRailRunning(ctx, "ach", true, "ops@example.com");
    expect(started).toMatchObject({ status: "active", version: stopped.version + 1, lastChange: { action: "start" } });
    expect((await railHistory(ctx, "ach")).map((change) => change.action)).toEqual(["start", "stop"]);
  });

  it("names are unique; ids are checked before any key is built; unknown ids are 404", async () => {
    await expect(updateRail(ctx, "wire", edit({ name: "ach", type: "Wire" }), "a@example.com")).rejects.toMatchObject({
      status: 409,
      code: "rail_name_taken",
    });
    await expect(getRail(ctx, "nope")).rejects.toMatchObject({ status: 404, code: "rail_not_found" });
    for (const bad of ["", "ACH", "a#b", "../x", "x".repeat(41), "RAIL#ach"])
      await expect(getRail(ctx, bad)).rejects.toMatchObject({ status: 400, code: "invalid_rail_id" });
  });

  it("a get on a fresh table seeds first", async () => {
    const fresh = await createTestContext();
    try {
      expect((await getRail(fresh, "swift")).name).toBe("SWIFT");
      expect((await getRail(fresh, "upi")).name).toBe("UPI");
      await expect(getRail(fresh, "cheque")).rejects.toMatchObject({ status: 404 });
    } finally {
      await fresh.dispose();
    }
  });
});

describe("what a rail carries: edits and the upgrade of rails stored before", () => {
  it("an edit sets currencies, countries, limits, settlement time and fee currency; omitted ones stay", async () => {
    const before = await getRail(ctx, "crypto");
    const saved = await updateRail(
      ctx,
      "crypto",
      edit({
        name: "Crypto",
        type: "Crypto",
        fixedFee: "0.20",
        fxSpreadPercent: "5",
        currencies: ["USD", "EUR", "USD"],
        countries: ["worldwide"],
        maxAmount: "50000",
        settlementSeconds: 900,
        version: before.version,
      }),
      "admin@example.com",
    );
    expect(saved).toMatchObject({
      currencies: ["USD", "EUR"],
      countries: ["WORLDWIDE"],
      maxAmount: "50000.00",
      maxAmountMinor: 5_000_000,
      minAmountMinor: before.minAmountMinor,
      settlementSeconds: 900,
      feeCurrency: "USD",
    });
    expect(saved.lastChange?.after).toEqual({
      maxAmount: "50000.00",
      maxAmountMinor: 5_000_000,
      settlementSeconds: 900,
    });
    const unlimited = await updateRail(
      ctx,
      "crypto",
      edit({ name: "Crypto", type: "Crypto", fixedFee: "0.20", fxSpreadPercent: "5", maxAmount: null }),
      "admin@example.com",
    );
    expect(unlimited).toMatchObject({ maxAmount: null, maxAmountMinor: null });
  });

  it("refuses an unknown country code and amounts with decimals the fee currency lacks (400, nothing written)", async () => {
    const itemsBefore = await railItems();
    await expect(
      updateRail(
        ctx,
        "upi",
        edit({ name: "UPI", type: "UPI", fixedFee: "0", countries: ["IN", "XX"] }),
        "a@example.com",
      ),
    ).rejects.toMatchObject({ status: 400, code: "validation_error", message: "XX is not an ISO 3166-1 country code" });
    await expect(
      updateRail(ctx, "upi", edit({ name: "UPI", type: "UPI", fixedFee: "0.05", feeCurrency: "JPY" }), "a@example.com"),
    ).rejects.toMatchObject({
      status: 400,
      message: "JPY has no decimals: the fixed fee and amount limits must be whole numbers",
    });
    expect(await railItems()).toEqual(itemsBefore);
  });

  it("a deployment seeded before UPI and before rails said what they carry: UPI is added, old items read with their seeded carriage", async () => {
    const older = await createTestContext();
    try {
      const at = "2025-12-01T00:00:00.000Z";
      const {
        currencies: _c,
        countries: _n,
        feeCurrency: _f,
        minAmount: _a,
        minAmountMinor: _b,
        maxAmount: _d,
        maxAmountMinor: _e,
        settlementSeconds: _s,
        ...oldSepa
      } = SEED_RAILS.find((rail) => rail.id === "sepa")!;
      await older.db.doc.send(
        new PutCommand({
          TableName: older.db.table,
          Item: { ...railRegistryKey(), entity: "payment_rail_registry", ids: ["sepa"], seeded_at: at },
        }),
      );
      await older.db.doc.send(
        new PutCommand({
          TableName: older.db.table,
          Item: {
            ...railKey("sepa"),
            entity: "payment_rail",
            ...oldSepa,
            fxSpread: 0.009,
            lastPing: null,
            version: 3,
            updated_at: at,
            updated_by: "admin@example.com",
            lastChange: null,
          },
        }),
      );
      const rails = await listRails(older);
      expect(rails.map((rail) => rail.id)).toEqual(["sepa", "ach", "wire", "card", "swift", "crypto", "upi"]);
      // The admin's edit stays; the fields it lacked come from the seeded row.
      expect(rails[0]).toMatchObject({
        fxSpread: 0.009,
        version: 3,
        currencies: ["EUR"],
        countries: ["SEPA"],
        feeCurrency: "EUR",
        settlementSeconds: 86_400,
      });
      expect((await Promise.all([listRails(older), listRails(older)]))[1].map((rail) => rail.id)).toHaveLength(7);
    } finally {
      await older.dispose();
    }
  });
});

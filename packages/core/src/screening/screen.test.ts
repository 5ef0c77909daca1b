import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { EMBARGOED_COUNTRIES, embargoOf } from "./embargoes";
import { SCREENING_MESSAGES } from "./model";
import { SEEDED_SANCTIONS_LIST } from "./sanctions-seed";
import { requireNotEmbargoed, screenCounterparty } from "./screen";

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
const AT = "2026-03-02T09:00:00.000Z";

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

describe("the embargo list", () => {
  it("holds the comprehensively embargoed countries, each with the measure it rests on", () => {
    expect(EMBARGOED_COUNTRIES.map((entry) => entry.code)).toEqual(expect.arrayContaining(["CU", "IR", "KP", "SY"]));
    for (const entry of EMBARGOED_COUNTRIES) {
      expect(entry.code).toMatch(/^[A-Z]{2}$/);
      expect(entry.basis.length).toBeGreaterThan(5);
    }
    expect(embargoOf(" kp ")?.name).toBe("North Korea");
    expect(embargoOf("DE")).toBeNull();
  });

  it("refuses with the country named when the payer gave it, and without it for a platform user's", () => {
    const refusal = (country: string, countryFromPayer: boolean) => {
      try {
        requireNotEmbargoed({
          subject: countryFromPayer ? "beneficiary" : "platform_user",
          name: "A",
          country,
          countryFromPayer,
        });
        return null;
      } catch (error) {
        return error;
      }
    };
    expect(refusal("KP", true)).toMatchObject({
      status: 422,
      code: "embargoed_country",
      message: SCREENING_MESSAGES.embargoedBeneficiary("North Korea"),
    });
    expect(refusal("IR", false)).toMatchObject({
      status: 422,
      code: "embargoed_country",
      message: SCREENING_MESSAGES.embargoedPayee,
    });
    expect(refusal("US", true)).toBeNull();
  });
});

describe("name screening", () => {
  it("finds every seeded entry by its name written another way (order, case, punctuation), and clears other names", async () => {
    for (const row of SEEDED_SANCTIONS_LIST.rows) {
      const spelled = row.sdnName.split(/[ ,]+/).reverse().join(" ").toLowerCase();
      const decision = await screenCounterparty(
        ctx,
        { subject: "beneficiary", name: spelled, country: "DE", countryFromPayer: true },
        AT,
      );
      expect(decision, row.sdnName).toMatchObject({
        result: "hit",
        match: { entry: row.sdnName, entryType: row.sdnType },
      });
    }
    for (const name of ["Ada Lovelace", "Grace Hopper", "Bob", "Kim Jones"]) {
      expect(
        (await screenCounterparty(ctx, { subject: "beneficiary", name, country: "DE", countryFromPayer: true }, AT))
          .result,
        name,
      ).toBe("clear");
    }
  });

  it("records who was screened, with what, and when; the payer's own account is not screened", async () => {
    const decision = await screenCounterparty(
      ctx,
      { subject: "platform_user", name: "Mahan Air", country: null, countryFromPayer: false },
      AT,
    );
    expect(decision).toMatchObject({
      subject: "platform_user",
      result: "hit",
      screenedName: "Mahan Air",
      screenedCountry: null,
      at: AT,
      match: {
        list: `${SEEDED_SANCTIONS_LIST.name} ${SEEDED_SANCTIONS_LIST.version}`,
        matchedName: "MAHAN AIR",
        score: 1,
      },
    });
    expect(decision.lists).toHaveLength(2);
    expect(
      await screenCounterparty(ctx, { subject: "own_account", name: null, country: null, countryFromPayer: false }, AT),
    ).toEqual({
      subject: "own_account",
      result: "clear",
      screenedName: null,
      screenedCountry: null,
      match: null,
      lists: [],
      at: AT,
    });
  });
});

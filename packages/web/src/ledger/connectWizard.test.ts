import { describe, expect, it } from "vitest";
import { CONNECT_COUNTRIES } from "./bankProvidersSeed";
import { accountDetailsSchema } from "./formSchemas";
import {
  accountBody,
  connectReducer,
  initialConnectState,
  providerDetails,
  validateDetails,
  type ConnectAction,
  type ConnectState,
} from "./connectWizard";

const run = (actions: ConnectAction[], from: ConnectState = initialConnectState) =>
  actions.reduce(connectReducer, from);
const usa = CONNECT_COUNTRIES.find((country) => country.code === "US")!;
const germany = CONNECT_COUNTRIES.find((country) => country.code === "DE")!;

describe("bank provider seed", () => {
  it("has USA 6, UK 5, Brazil 4, India 5, Germany 4 providers with inline SVG logos", () => {
    expect(CONNECT_COUNTRIES.map((country) => [country.name, country.providers.length])).toEqual([
      ["USA", 6],
      ["UK", 5],
      ["Brazil", 4],
      ["India", 5],
      ["Germany", 4],
    ]);
    for (const provider of CONNECT_COUNTRIES.flatMap((country) => country.providers)) {
      expect(provider.logo.startsWith("<svg")).toBe(true);
      expect(provider.logo).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
  });
});

describe("connect-account wizard", () => {
  it("manual entry goes from the country straight to the details", () => {
    const state = run([{ type: "country", country: germany }, { type: "manual" }]);
    expect(state).toMatchObject({ step: 3, provider: null });
    expect(state.details.currency).toBe("EUR");
  });

  it("a provider authorises first, then lands on the details pre-filled", () => {
    const provider = usa.providers[0]!;
    const authorising = run([
      { type: "country", country: usa },
      { type: "provider", provider },
    ]);
    expect(authorising).toMatchObject({ step: 2, authorising: provider });
    const details = providerDetails(provider, usa, () => 0.5);
    const state = connectReducer(authorising, { type: "authorised", details });
    expect(state).toMatchObject({ step: 3, provider, authorising: null, details });
    expect(details.accountNumber).toBe("HNB-5555-555555");
    expect(validateDetails(details)).toEqual({});
  });

  it("cancelling the authorisation stays on the provider step; a late result is ignored", () => {
    const state = run([
      { type: "country", country: usa },
      { type: "provider", provider: usa.providers[1]! },
      { type: "cancel-authorise" },
    ]);
    expect(state).toMatchObject({ step: 2, authorising: null });
    expect(connectReducer(state, { type: "authorised", details: providerDetails(usa.providers[1]!, usa) })).toBe(state);
  });

  it("requires account name and number; the description is optional", () => {
    const empty = { name: "", accountNumber: "", description: "", currency: "USD" as const };
    expect(validateDetails(empty)).toEqual({
      name: "Account name is required",
      accountNumber: "Account number is required",
    });
    expect(validateDetails({ ...empty, name: "Savings" })).toEqual({ accountNumber: "Account number is required" });
    const parsed = accountDetailsSchema.safeParse({ ...empty, name: "Savings" });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["accountNumber", "Account number is required"],
    ]);
  });

  it("uses the server's own rule for the account number's format", () => {
    expect(validateDetails({ name: "A", accountNumber: "12", description: "", currency: "USD" })).toEqual({
      accountNumber: "Account number must be 4 to 34 letters, digits or dashes",
    });
  });

  it("reviews, then succeeds; Back returns one step at a time", () => {
    const filled = run([
      { type: "country", country: usa },
      { type: "manual" },
      { type: "details", details: { name: "Everyday", accountNumber: "EVD-0001", description: "", currency: "USD" } },
    ]);
    expect(filled.step).toBe(4);
    expect(run([{ type: "back" }], filled).step).toBe(3);
    expect(run([{ type: "back" }, { type: "back" }], filled).step).toBe(2);
    expect(run([{ type: "back" }, { type: "back" }, { type: "back" }, { type: "back" }], filled).step).toBe(1);
    const failed = connectReducer(filled, {
      type: "failed",
      message: "An account with this account number already exists",
    });
    expect(failed).toMatchObject({ step: 4, submitError: "An account with this account number already exists" });
    const done = connectReducer(failed, { type: "created", accountId: "acc-9" });
    expect(done).toMatchObject({ step: 5, createdAccountId: "acc-9", submitError: null });
    expect(connectReducer(done, { type: "back" })).toBe(done);
  });

  it("sends a bank account with the trimmed details", () => {
    expect(accountBody({ name: " Everyday ", accountNumber: " EVD-0001 ", description: "", currency: "GBP" })).toEqual({
      name: "Everyday",
      account_number: "EVD-0001",
      currency: "GBP",
      type: "bank",
    });
    expect(accountBody({ name: "A", accountNumber: "ABCD", description: "Bills", currency: "USD" }).description).toBe(
      "Bills",
    );
  });
});

import { describe, expect, it } from "vitest";
import { account } from "./fixtures";
import { afterDeposit, currenciesFor, depositBody, initialDeposit, testBalanceBody } from "./depositForm";
import { depositFormSchema } from "./formSchemas";

const fields = { accountId: "acc-1", amount: "500", currency: "USD" as const, description: "" };
const errorsOf = (values: unknown) => {
  const parsed = depositFormSchema.safeParse(values);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("deposit form", () => {
  it("requires an account and an amount, with the money parser's own words", () => {
    expect(errorsOf({ ...fields, accountId: "", amount: "" })).toEqual({
      accountId: "Please choose an account",
      amount: "Amount is required",
    });
    expect(errorsOf({ ...fields, amount: "0.001" })).toEqual({
      amount: "USD amounts can have at most 2 decimal places",
    });
    expect(errorsOf({ ...fields, amount: "abc" })).toEqual({ amount: "Amount must be a number" });
    expect(errorsOf({ ...fields, amount: ".5" })).toEqual({});
    expect(errorsOf({ ...fields, description: "x".repeat(501) })).toEqual({
      description: "Must be at most 500 characters",
    });
    expect(errorsOf(fields)).toEqual({});
  });

  it("opens on the account's currency and offers only that one", () => {
    const euro = account({ id: "e", currency: "EUR" });
    expect(initialDeposit(euro)).toEqual({ accountId: "e", amount: "500", currency: "EUR", description: "" });
    expect(currenciesFor(euro)).toEqual(["EUR"]);
    expect(currenciesFor(undefined)).toEqual(["USD", "EUR", "GBP"]);
  });

  it("after a deposit keeps the account but clears the amount, so a second click deposits nothing", () => {
    const after = afterDeposit({ ...fields, description: "Salary" });
    expect(after).toEqual({ accountId: "acc-1", amount: "", currency: "USD", description: "" });
    expect(errorsOf(after)).toEqual({ amount: "Amount is required" });
  });

  it("sends the deposit and the test-balance bodies", () => {
    expect(depositBody({ ...fields, description: " Salary " })).toEqual({
      account_id: "acc-1",
      amount: "500",
      currency: "USD",
      description: "Salary",
    });
    expect(depositBody(fields)).toEqual({ account_id: "acc-1", amount: "500", currency: "USD" });
    expect(testBalanceBody(fields)).toEqual({ account_id: "acc-1", currency: "USD" });
  });
});

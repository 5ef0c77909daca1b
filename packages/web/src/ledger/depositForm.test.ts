import { describe, expect, it } from "vitest";
import { depositBody, responseText, testBalanceBody, validateDeposit } from "./depositForm";

const fields = { accountId: "acc-1", amount: "500", currency: "USD" as const, description: "" };

describe("deposit form", () => {
  it("requires an account and an amount", () => {
    expect(validateDeposit({ ...fields, accountId: "", amount: "" })).toEqual({ accountId: "Please choose an account", amount: "Amount is required" });
    expect(validateDeposit({ ...fields, amount: "0.001" })).toEqual({ amount: "USD amounts can have at most 2 decimal places" });
    expect(validateDeposit(fields)).toEqual({});
  });

  it("sends the deposit and the test-balance bodies", () => {
    expect(depositBody({ ...fields, description: " Salary " })).toEqual({ account_id: "acc-1", amount: "500", currency: "USD", description: "Salary" });
    expect(depositBody(fields)).toEqual({ account_id: "acc-1", amount: "500", currency: "USD" });
    expect(testBalanceBody(fields)).toEqual({ account_id: "acc-1", currency: "USD" });
  });

  it("shows the raw reply as indented JSON text", () => {
    expect(responseText({ message: "Transaction created", data: { id: "t" } })).toBe('{\n  "message": "Transaction created",\n  "data": {\n    "id": "t"\n  }\n}');
  });
});

import { describe, expect, it } from "vitest";
import { account, transaction } from "./fixtures";
import { transferDetailsSchema } from "./formSchemas";
import { amountError } from "./money";
import {
  destinationsFor,
  initialTransferState,
  transferBody,
  transferReducer,
  type TransferAction,
  type TransferState,
} from "./transferWizard";

let counter = 0;
const makeKey = () => `key-${++counter}`;
const run = (actions: TransferAction[], from: TransferState = initialTransferState()) =>
  actions.reduce(transferReducer, from);

const toConfirm: TransferAction[] = [
  { type: "from", accountId: "a", currency: "USD" },
  { type: "to", accountId: "b" },
  { type: "details", values: { amount: "100", currency: "USD", description: "" }, makeKey },
];
const same = toConfirm[2]!;

describe("transfer wizard", () => {
  it("starts at the source with 100 as the amount; a preset source starts at the destination", () => {
    expect(initialTransferState()).toMatchObject({ step: 1, amount: "100", currency: "USD" });
    expect(initialTransferState("a", "EUR")).toMatchObject({ step: 2, fromId: "a", currency: "EUR" });
  });

  it("excludes the source from the destinations and marks other currencies as converted at a quote", () => {
    const accounts = [account({ id: "a" }), account({ id: "b" }), account({ id: "e", currency: "EUR" })];
    expect(
      destinationsFor(accounts, "a").map(({ account: item, selectable, converted }) => [
        item.id,
        selectable,
        converted,
      ]),
    ).toEqual([
      ["b", true, false],
      ["e", true, true],
    ]);
    expect(
      run([
        { type: "from", accountId: "a", currency: "USD" },
        { type: "to", accountId: "a" },
      ]).step,
    ).toBe(2);
  });

  it("makes one key on reaching the confirm step and keeps it for retries", () => {
    const confirm = run(toConfirm);
    expect(confirm.step).toBe(4);
    const key = confirm.action?.key;
    expect(key).toBeTruthy();
    const failed = transferReducer(confirm, { type: "failed", message: "Failed to complete transfer" });
    expect(failed.action?.key).toBe(key);
    // Back and forward again without a change: still the same transfer, the same key.
    expect(run([{ type: "back" }, same], failed).action?.key).toBe(key);
    // A changed amount is another transfer.
    expect(
      run(
        [
          { type: "back" },
          { type: "details", values: { amount: "120.50", currency: "USD", description: "" }, makeKey },
        ],
        failed,
      ).action?.key,
    ).not.toBe(key);
  });

  it("after a success, the same transfer again is a new action with a new key", () => {
    const confirm = run(toConfirm);
    const done = transferReducer(confirm, { type: "done", result: transaction({ type: "transfer" }) });
    expect(done.step).toBe(5);
    expect(done.action?.done).toBe(true);
  });

  it("checks the amount with the money model (step 0.01, more than 0, '.5' is 0.50)", () => {
    expect(amountError("", "USD")).toBe("Amount is required");
    expect(amountError("0", "USD")).toBe("Amount must be greater than 0");
    expect(amountError("1.234", "USD")).toBe("USD amounts can have at most 2 decimal places");
    expect(amountError("-5", "USD")).toBe("Amount must be greater than 0");
    expect(amountError("99.99", "GBP")).toBeNull();
    expect(amountError(".5", "USD")).toBeNull();
    const parsed = transferDetailsSchema.safeParse({ amount: "abc", currency: "USD", description: "" });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["amount", "Amount must be a number"],
    ]);
  });

  it("sends the transfer body with an optional description", () => {
    expect(transferBody({ fromId: "a", toId: "b", amount: " 100 ", currency: "USD", description: " " })).toEqual({
      from_account_id: "a",
      to_account_id: "b",
      amount: "100",
      currency: "USD",
    });
    expect(
      transferBody({ fromId: "a", toId: "b", amount: "1", currency: "EUR", description: "Rent" }).description,
    ).toBe("Rent");
  });
});

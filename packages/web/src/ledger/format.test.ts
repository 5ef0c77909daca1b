import { describe, expect, it } from "vitest";
import { account } from "./fixtures";
import {
  accountOptionLabel,
  createdMessage,
  formatDay,
  humanize,
  isoToLocalInput,
  localInputToIso,
  statusLabel,
  statusOf,
  transactionAction,
  typeLabel,
} from "./format";

describe("labels", () => {
  it("show raw values as words people read", () => {
    expect(typeLabel("test_balance")).toBe("Test balance");
    expect(typeLabel("TRANSFER")).toBe("Transfer");
    expect(typeLabel("cash_out")).toBe("Cash out");
    expect(statusLabel("POSTED")).toBe("Posted");
    expect(statusLabel("")).toBe("Draft");
    expect(statusOf("POSTED")).toBe("posted");
    expect(humanize("ACTIVE")).toBe("Active");
  });

  it("word the toast after a write", () => {
    expect(createdMessage("Deposit", { total_amount_minor: 50000, currency: "USD", status: "draft" })).toBe(
      "Deposit of $500.00 created as a draft",
    );
    expect(createdMessage("Transfer", { total_amount_minor: 100, currency: "EUR", status: "posted" })).toBe(
      "Transfer of €1.00 created and posted",
    );
  });

  it("name accounts by name and account number", () => {
    expect(accountOptionLabel(account({ name: "Everyday", account_number: "EVD-0001" }))).toBe("Everyday - EVD-0001");
  });
});

describe("dates", () => {
  it("formats UTC analytics days", () => {
    expect(formatDay("2026-03-14")).toBe("Mar 14");
    expect(formatDay("2026-03-14", true)).toBe("Mar 14, 2026");
  });

  it("turns a datetime-local value into an ISO instant and back", () => {
    const iso = localInputToIso("2026-03-14T09:30");
    expect(iso).toBe(new Date(2026, 2, 14, 9, 30).toISOString());
    expect(isoToLocalInput(iso!)).toBe("2026-03-14T09:30");
    expect(localInputToIso("")).toBeNull();
    expect(localInputToIso("2026-03-14")).toBeNull();
  });
});

describe("transactionAction", () => {
  it("approves drafts and unposts posted transactions, but leaves payment holds and voided journals alone", () => {
    expect(transactionAction({ type: "transfer", status: "draft" })).toBe("approve");
    expect(transactionAction({ type: "deposit", status: "POSTED" })).toBe("unpost");
    expect(transactionAction({ type: "payment", status: "draft" })).toBeNull();
    expect(transactionAction({ type: "payment", status: "posted" })).toBeNull();
    expect(transactionAction({ type: "transfer", status: "voided" })).toBeNull();
  });
});

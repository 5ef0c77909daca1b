import { describe, expect, it } from "vitest";
import { account } from "./fixtures";
import { accountOptionLabel, formatDay, isoToLocalInput, localInputToIso, statusLabel, typeLabel } from "./format";
import { formatDecimal, signedWithCode, withCode } from "./money";

describe("labels", () => {
  it("show types and statuses as the spec does", () => {
    expect(typeLabel("test_balance")).toBe("Test balance");
    expect(typeLabel("TRANSFER")).toBe("Transfer");
    expect(typeLabel("cash_out")).toBe("Cash out");
    expect(statusLabel("POSTED")).toBe("posted");
    expect(statusLabel("")).toBe("draft");
  });

  it("name accounts by name and account number", () => {
    expect(accountOptionLabel(account({ name: "Everyday", account_number: "EVD-0001" }))).toBe("Everyday - EVD-0001");
  });
});

describe("money display (core's money model)", () => {
  it("en-US with 2 decimals, JPY none", () => {
    expect(formatDecimal("1234.5", "USD")).toBe("1,234.50");
    expect(formatDecimal("1200", "JPY")).toBe("1,200");
    expect(withCode(-12050, "EUR")).toBe("-120.50 EUR");
    expect(signedWithCode(12050, "GBP")).toBe("+120.50 GBP");
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

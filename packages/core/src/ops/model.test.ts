import { describe, expect, it } from "vitest";
import { matchesOpsFilter, mergeOpsRow, perMinute, type OpsJournalRow, type OpsPaymentRow, type OpsRow } from "./model";

const journal = (id: string, at: string, fields: Partial<OpsJournalRow> = {}): OpsJournalRow => ({
  table: "journal",
  id,
  change: "posted",
  type: "transfer",
  status: "posted",
  amount: "10.00",
  currency: "USD",
  ownerId: "usr_owner",
  description: "Rent for March",
  at,
  ...fields,
});
const payment = (id: string, at: string, fields: Partial<OpsPaymentRow> = {}): OpsPaymentRow => ({
  table: "payment",
  id,
  change: "status",
  railId: "ach",
  rail: "ACH",
  status: "processing",
  amount: "5.00",
  currency: "EUR",
  userId: "usr_payer",
  at,
  ...fields,
});

describe("journals per minute", () => {
  it("counts each minute of the hour ending with now's minute, oldest first, and leaves out the rest", () => {
    const now = new Date("2026-11-20T10:59:30.000Z");
    const { from, counts } = perMinute(
      [
        "2026-11-20T10:59:29.999Z",
        "2026-11-20T10:59:00.000Z",
        "2026-11-20T10:00:00.000Z",
        "2026-11-20T09:59:59.999Z",
        "2026-11-20T11:00:00.000Z",
      ],
      now,
    );
    expect(from).toBe("2026-11-20T10:00:00.000Z");
    expect(counts).toHaveLength(60);
    expect(counts[0]).toBe(1);
    expect(counts[59]).toBe(2);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(3);
  });
});

describe("the filters", () => {
  const rows: OpsRow[] = [journal("jrn_1", "2026-11-20T10:00:00.000Z"), payment("pay_1", "2026-11-20T10:00:00.000Z")];
  const shown = (filter: Parameters<typeof matchesOpsFilter>[1]) =>
    rows.filter((row) => matchesOpsFilter(row, filter)).map((row) => row.id);

  it("apply each filter to the tables that have its field and leave the others alone", () => {
    expect(shown({})).toEqual(["jrn_1", "pay_1"]);
    expect(shown({ status: "posted" })).toEqual(["jrn_1", "pay_1"]);
    expect(shown({ status: "draft" })).toEqual(["pay_1"]);
    expect(shown({ status: "completed" })).toEqual(["jrn_1"]);
    expect(shown({ rail: "wire" })).toEqual(["jrn_1"]);
    expect(shown({ currency: "EUR" })).toEqual(["pay_1"]);
    expect(shown({ type: "deposit" })).toEqual(["pay_1"]);
  });

  it("search ids, users and descriptions, in any case", () => {
    expect(shown({ text: "MARCH" })).toEqual(["jrn_1"]);
    expect(shown({ text: "usr_payer" })).toEqual(["pay_1"]);
    expect(shown({ text: "  " })).toEqual(["jrn_1", "pay_1"]);
    expect(shown({ text: "nothing like it" })).toEqual([]);
  });
});

describe("merging a row into a table", () => {
  it("keeps one row per id, its latest change, newest first, at most the limit", () => {
    let rows: OpsPaymentRow[] = [];
    rows = mergeOpsRow(rows, payment("pay_1", "2026-11-20T10:00:01.000Z"), 2);
    rows = mergeOpsRow(rows, payment("pay_2", "2026-11-20T10:00:02.000Z"), 2);
    rows = mergeOpsRow(rows, payment("pay_1", "2026-11-20T10:00:03.000Z", { status: "completed" }), 2);
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      ["pay_1", "completed"],
      ["pay_2", "processing"],
    ]);
    // An older change arriving late changes nothing.
    rows = mergeOpsRow(rows, payment("pay_1", "2026-11-20T10:00:01.500Z", { status: "pending" }), 2);
    expect(rows[0]!.status).toBe("completed");
    rows = mergeOpsRow(rows, payment("pay_3", "2026-11-20T10:00:04.000Z"), 2);
    expect(rows.map((row) => row.id)).toEqual(["pay_3", "pay_1"]);
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { approveAll, bulkToasts, draftsOf } from "./bulkApprove";
import { transaction } from "./fixtures";

describe("bulk approve", () => {
  it("picks the drafts only, never a payment's hold or a voided journal", () => {
    const list = [
      transaction({ id: "a" }),
      transaction({ id: "b", status: "posted" }),
      transaction({ id: "c" }),
      transaction({ id: "hold", type: "payment" }),
      transaction({ id: "released", type: "payment", status: "voided" }),
    ];
    expect(draftsOf(list).map((item) => item.id)).toEqual(["a", "c"]);
  });

  it("posts all drafts in parallel and collects every failure", async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = approveAll([{ id: "a" }, { id: "b" }, { id: "c" }], async (id) => {
      started.push(id);
      await gate;
      if (id === "b") throw new ApiError("Transaction is already posted", "server-message", 409);
      if (id === "c") throw new ApiError("Network error. Please try again.", "network");
    });
    // All three are in flight before any of them finishes.
    await Promise.resolve();
    expect(started).toEqual(["a", "b", "c"]);
    release();
    expect(await run).toEqual({
      approved: ["a"],
      failed: [
        { id: "b", message: "Transaction is already posted" },
        { id: "c", message: "Network error: the server could not be reached" },
      ],
    });
  });

  it("says every message of docs/product/ledger-workspace.md#messages", () => {
    expect(bulkToasts(0, null)).toEqual([{ type: "error", message: "No draft transactions to approve" }]);
    expect(bulkToasts(2, null)).toEqual([{ type: "error", message: "Bulk approve failed" }]);
    expect(bulkToasts(2, { approved: ["a", "b"], failed: [] })).toEqual([
      { type: "success", message: "Bulk approve completed: 2 approved, 0 failed" },
    ]);
    expect(
      bulkToasts(3, {
        approved: ["a"],
        failed: [
          { id: "b", message: "x" },
          { id: "c", message: "y" },
        ],
      }),
    ).toEqual([
      { type: "error", message: "2 transactions failed to approve" },
      { type: "info", message: "Bulk approve completed: 1 approved, 2 failed" },
    ]);
    expect(bulkToasts(1, { approved: [], failed: [{ id: "b", message: "x" }] })).toEqual([
      { type: "error", message: "Bulk approve failed" },
      { type: "error", message: "1 transactions failed to approve" },
    ]);
  });
});

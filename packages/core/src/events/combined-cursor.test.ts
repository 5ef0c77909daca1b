import { describe, expect, it } from "vitest";
import { joinCursors, splitCursors } from "./combined-cursor";

const NAMES = ["ledger", "kyc", "payment"];

describe("combined cursors", () => {
  it("carries each feed's signed cursor by name, in any subset", () => {
    const id = joinCursors([
      ["ledger", "eyJwIjoiYSJ9.c2ln"],
      ["payment", "eyJwIjoiYiJ9.c2lo"],
    ]);
    expect(id).toBe("ledger=eyJwIjoiYSJ9.c2ln,payment=eyJwIjoiYiJ9.c2lo");
    expect(splitCursors(id, NAMES)).toEqual(
      new Map([
        ["ledger", "eyJwIjoiYSJ9.c2ln"],
        ["payment", "eyJwIjoiYiJ9.c2lo"],
      ]),
    );
  });

  it("refuses unknown or repeated names, empty parts and oversized ids as invalid_event_id", () => {
    for (const text of [
      "",
      "ledger",
      "=abc",
      "ledger=",
      "rails=abc",
      "ledger=a,ledger=b",
      "ledger=a,,kyc=b",
      `ledger=${"a".repeat(8_001)}`,
      "x".repeat(30_000),
    ]) {
      expect(() => splitCursors(text, NAMES), text.slice(0, 30)).toThrow(
        expect.objectContaining({ status: 400, code: "invalid_event_id" }),
      );
    }
  });
});

import { describe, expect, it } from "vitest";
import { LOGIN_REQUIRED_TOAST_ID, MAX_VISIBLE_TOASTS, toastIdFor, toastsToDismiss, type ToastEntry } from "./policy";

const entry = (id: string, createdAt: number, message: unknown = id, type = "success", visible = true): ToastEntry => ({
  id,
  type,
  visible,
  createdAt,
  message,
});

describe("toast cap", () => {
  it("shows at most three: the oldest visible ones go first", () => {
    expect(MAX_VISIBLE_TOASTS).toBe(3);
    const five = [entry("a", 1), entry("b", 2), entry("c", 3), entry("d", 4), entry("e", 5)];
    expect(toastsToDismiss(five).sort()).toEqual(["a", "b"]);
    // The store's order does not matter, only when each toast was raised.
    expect(toastsToDismiss([...five].reverse()).sort()).toEqual(["a", "b"]);
  });

  it("leaves three or fewer alone, and does not count toasts already leaving", () => {
    expect(toastsToDismiss([entry("a", 1), entry("b", 2), entry("c", 3)])).toEqual([]);
    expect(
      toastsToDismiss([entry("a", 1, "a", "success", false), entry("b", 2), entry("c", 3), entry("d", 4)]),
    ).toEqual([]);
    expect(toastsToDismiss([])).toEqual([]);
  });

  it("takes another limit, never below zero", () => {
    expect(toastsToDismiss([entry("a", 1), entry("b", 2)], 1)).toEqual(["a"]);
    expect(toastsToDismiss([entry("a", 1)], -2)).toEqual(["a"]);
  });
});

describe("toast dedupe", () => {
  it("keeps only the newest of the same message and type", () => {
    const toasts = [
      entry("1", 1, "Transaction approved"),
      entry("2", 2, "Transaction approved"),
      entry("3", 3, "Transaction approved"),
    ];
    expect(toastsToDismiss(toasts).sort()).toEqual(["1", "2"]);
  });

  it("keeps the same text under another type, and never compares rendered messages", () => {
    const render = () => null;
    const toasts = [
      entry("ok", 1, "Saved", "success"),
      entry("bad", 2, "Saved", "error"),
      entry("f1", 3, render),
      entry("f2", 4, render),
    ];
    expect(toastsToDismiss(toasts, 10)).toEqual([]);
  });

  it("dedupes before capping, so a repeated message does not push out a different one", () => {
    const toasts = [
      entry("other", 1, "Account created"),
      entry("x1", 2, "Approved"),
      entry("x2", 3, "Approved"),
      entry("x3", 4, "Approved"),
      entry("last", 5, "Exported"),
    ];
    expect(toastsToDismiss(toasts).sort()).toEqual(["x1", "x2"]);
  });

  it("gives the same message of the same kind the same id", () => {
    expect(toastIdFor("success", "Saved")).toBe(toastIdFor("success", "Saved"));
    expect(toastIdFor("success", "Saved")).not.toBe(toastIdFor("error", "Saved"));
    expect(toastIdFor("error", "Please log in")).not.toBe(LOGIN_REQUIRED_TOAST_ID);
  });
});

import { describe, expect, it } from "vitest";
import { fingerprintOf, keyFor, settled } from "./actionKey";

let counter = 0;
const makeKey = () => `key-${++counter}`;

describe("one Idempotency-Key per user action", () => {
  it("keeps the key for a retry of the same unfinished request", () => {
    const first = keyFor(null, { amount: "100", to: "b" }, makeKey);
    const retry = keyFor(first, { to: "b", amount: "100" }, makeKey);
    expect(retry.key).toBe(first.key);
  });

  it("makes a new key when the request changes", () => {
    const first = keyFor(null, { amount: "100" }, makeKey);
    expect(keyFor(first, { amount: "101" }, makeKey).key).not.toBe(first.key);
  });

  it("makes a new key for a new action after a success", () => {
    const first = keyFor(null, { amount: "100" }, makeKey);
    expect(keyFor(settled(first), { amount: "100" }, makeKey).key).not.toBe(first.key);
  });

  it("fingerprints bodies independently of key order, nested too", () => {
    expect(fingerprintOf({ b: 1, a: { d: 2, c: 3 } })).toBe(fingerprintOf({ a: { c: 3, d: 2 }, b: 1 }));
  });
});

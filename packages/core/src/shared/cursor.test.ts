import { describe, expect, it } from "vitest";
import { signCursor, verifyCursor, type CursorBinding } from "./cursor";
import { parseKeyring } from "./keyring";

const SECRET = "1:a-test-secret-that-is-long-enough-for-hmac";
const KEY_NAMES = ["pk", "sk"] as const;
const key = { pk: "OWNER#u1#TXS", sk: "2026-03-01T10:00:00.000Z#j1" };
const binding = (scope: Record<string, unknown>, secret = SECRET): CursorBinding => ({
  secret: parseKeyring("CURSOR_KEYS", secret),
  scope,
});
const refused = (run: () => unknown) => {
  expect(run).toThrow(expect.objectContaining({ status: 400, code: "invalid_cursor", message: "Invalid cursor" }));
};

describe("signed cursors", () => {
  const mine = binding({ route: "history", owner: "u1", status: "posted" });

  it("round-trip the key for the query that signed them, whatever the scope's key order", () => {
    const cursor = signCursor(mine, key);
    expect(verifyCursor(mine, cursor, KEY_NAMES)).toEqual(key);
    expect(verifyCursor(binding({ status: "posted", owner: "u1", route: "history" }), cursor, KEY_NAMES)).toEqual(key);
    // The cursor is opaque: no key text in the clear.
    expect(cursor).not.toContain("OWNER#");
  });

  it("refuse a cursor from another owner, filter set, route or secret", () => {
    const cursor = signCursor(mine, key);
    refused(() => verifyCursor(binding({ route: "history", owner: "u2", status: "posted" }), cursor, KEY_NAMES));
    refused(() => verifyCursor(binding({ route: "history", owner: "u1", status: "draft" }), cursor, KEY_NAMES));
    refused(() => verifyCursor(binding({ route: "history", owner: "u1" }), cursor, KEY_NAMES));
    refused(() => verifyCursor(binding({ route: "account", owner: "u1", status: "posted" }), cursor, KEY_NAMES));
    refused(() =>
      verifyCursor(binding({ route: "history", owner: "u1", status: "posted" }, `${SECRET}-other`), cursor, KEY_NAMES),
    );
  });

  it("refuse tampered, truncated and made-up cursors", () => {
    const cursor = signCursor(mine, key);
    const [payload, signature] = cursor.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...key, pk: "OWNER#u2#TXS" })).toString("base64url");
    refused(() => verifyCursor(mine, `${forged}.${signature}`, KEY_NAMES));
    refused(() => verifyCursor(mine, `${payload}.${signature.slice(0, -2)}`, KEY_NAMES));
    refused(() =>
      verifyCursor(mine, `${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`, KEY_NAMES),
    );
    refused(() => verifyCursor(mine, payload, KEY_NAMES));
    refused(() => verifyCursor(mine, `${cursor}.x`, KEY_NAMES));
    for (const junk of [
      "",
      ".",
      "abc",
      "%%%.###",
      "eyJ9.AAAA",
      "x".repeat(2000),
      `${"x".repeat(3000)}.${"A".repeat(43)}`,
    ])
      refused(() => verifyCursor(mine, junk, KEY_NAMES));
  });

  it("refuse a validly signed payload of the wrong shape", () => {
    refused(() => verifyCursor(mine, signCursor(mine, { pk: "p" }), KEY_NAMES));
    refused(() => verifyCursor(mine, signCursor(mine, { ...key, extra: "x" }), KEY_NAMES));
  });

  it("verify under every retained key version, and no longer once a version is removed", () => {
    const before = signCursor(mine, key);
    const rotated = (scope: Record<string, unknown>) =>
      binding(scope, `2:a-newer-secret-that-is-long-enough-for-hmac,${SECRET}`);
    const mineRotated = rotated({ route: "history", owner: "u1", status: "posted" });
    expect(verifyCursor(mineRotated, before, KEY_NAMES)).toEqual(key);
    const after = signCursor(mineRotated, key);
    expect(after).not.toBe(before);
    expect(verifyCursor(mineRotated, after, KEY_NAMES)).toEqual(key);
    refused(() => verifyCursor(mine, after, KEY_NAMES));
    refused(() =>
      verifyCursor(
        binding({ route: "history", owner: "u1", status: "posted" }, "2:a-newer-secret-that-is-long-enough-for-hmac"),
        before,
        KEY_NAMES,
      ),
    );
  });
});

import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, rotatedKeyring, TEST_KEYS } from "@fintech/testing/context";
import { loadConfig } from "../shared/config";
import type { CoreContext } from "../shared/context";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "./api-keys";
import { assertCredentialActive } from "./credentials";
import { register } from "./service";

/**
 * API keys across a rotation of API_KEY_HASH_KEYS, on one table: the app before the rotation
 * (t1), during it (t2 newest, t1 kept) and after t1 is retired.
 */
let ctx: Awaited<ReturnType<typeof createTestContext>>;
let rotating: CoreContext;
let retired: CoreContext;
let ownerId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const withKeys = (API_KEY_HASH_KEYS: string): CoreContext => ({
    ...ctx,
    config: { ...ctx.config, API_KEY_HASH_KEYS: loadConfig({ API_KEY_HASH_KEYS }).API_KEY_HASH_KEYS },
  });
  rotating = withKeys(rotatedKeyring("t2", TEST_KEYS.API_KEY_HASH_KEYS));
  retired = withKeys(rotatedKeyring("t2", TEST_KEYS.API_KEY_HASH_KEYS).split(",")[0]!);
  ownerId = (
    await register(ctx, {
      email: "rotating-keys@example.com",
      password: "long enough pw",
      first_name: "K",
      last_name: "R",
      phone: null,
      date_of_birth: null,
    })
  ).user.id;
});
afterAll(async () => ctx.dispose());

/** The stored items of one key (by id): there is exactly one, whatever its hash. */
async function storedItems(keyId: string) {
  const reply = await ctx.db.doc.send(new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true }));
  return (reply.Items ?? []).filter((item) => item.entity === "api_key" && item.id === keyId);
}

describe("API keys across a key rotation", () => {
  it("a key made under the previous version still works after a new one becomes current, and moves to it on first use", async () => {
    const created = await createApiKey(ctx, ownerId, { name: "made before" });
    expect((await storedItems(created.id)).map((item) => item.hash_version)).toEqual(["t1"]);
    const before = await storedItems(created.id);

    const during = await authenticateApiKey(rotating, created.key);
    expect(during).toMatchObject({ sub: ownerId, apiKeyId: created.id, role: "user" });
    const moved = await storedItems(created.id);
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({
      hash_version: "t2",
      id: created.id,
      name: "made before",
      created_at: created.created_at,
      last_used_at: expect.any(String),
    });
    expect(moved[0]!.pk).not.toBe(before[0]!.pk);

    // Moved, so retiring t1 does not end it; it stays one key in the owner's list.
    expect((await authenticateApiKey(retired, created.key)).apiKeyId).toBe(created.id);
    expect((await listApiKeys(retired, ownerId)).filter((key) => key.id === created.id)).toHaveLength(1);
    await assertCredentialActive(retired, {
      kind: "api_key",
      userId: ownerId,
      keyId: created.id,
      scopes: created.scopes,
    });
  });

  it("a key not used before its version is retired stops working", async () => {
    const idle = await createApiKey(ctx, ownerId, { name: "never used" });
    await expect(authenticateApiKey(retired, idle.key)).rejects.toMatchObject({ status: 401, code: "invalid_api_key" });
    expect((await storedItems(idle.id)).map((item) => item.hash_version)).toEqual(["t1"]);
  });

  it("a key made during the rotation is stored under the new version; revoking a moved key ends it under every version", async () => {
    const fresh = await createApiKey(rotating, ownerId, { name: "made during" });
    expect((await storedItems(fresh.id)).map((item) => item.hash_version)).toEqual(["t2"]);
    expect((await authenticateApiKey(rotating, fresh.key)).apiKeyId).toBe(fresh.id);
    await expect(authenticateApiKey(ctx, fresh.key)).rejects.toMatchObject({ status: 401 });

    const old = await createApiKey(ctx, ownerId, { name: "moved then revoked" });
    await authenticateApiKey(rotating, old.key);
    expect((await revokeApiKey(rotating, ownerId, old.id)).revoked_at).not.toBeNull();
    for (const context of [ctx, rotating, retired])
      await expect(authenticateApiKey(context, old.key)).rejects.toMatchObject({ status: 401 });
    await expect(
      assertCredentialActive(rotating, { kind: "api_key", userId: ownerId, keyId: old.id, scopes: old.scopes }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("a revoked key is not moved, and two uses at once move it once", async () => {
    const revoked = await createApiKey(ctx, ownerId, { name: "revoked before rotation" });
    await revokeApiKey(ctx, ownerId, revoked.id);
    await expect(authenticateApiKey(rotating, revoked.key)).rejects.toMatchObject({ status: 401 });
    expect((await storedItems(revoked.id)).map((item) => item.hash_version)).toEqual(["t1"]);

    const busy = await createApiKey(ctx, ownerId, { name: "busy" });
    const uses = await Promise.all([authenticateApiKey(rotating, busy.key), authenticateApiKey(rotating, busy.key)]);
    expect(uses.map((use) => use.apiKeyId)).toEqual([busy.id, busy.id]);
    expect((await storedItems(busy.id)).map((item) => item.hash_version)).toEqual(["t2"]);
  });
});

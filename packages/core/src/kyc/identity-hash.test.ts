import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, rotatedKeyring, TEST_KEYS } from "@fintech/testing/context";
import { loadConfig } from "../shared/config";
import type { CoreContext } from "../shared/context";
import { startKyc } from "./start";
import { verifyIdentityNumber } from "./identity-number-steps";
import { findUserSubmission } from "./submissions";
import { computeFacts } from "./risk/facts";
import { livePublishedRuleSet } from "./risk/rule-sets";

/**
 * Duplicate identity numbers across a rotation of IDENTITY_HASH_KEYS: the same table seen by the
 * app before the rotation (t1), during it (t2 with t1 retained) and after t1 is retired.
 */
let ctx: Awaited<ReturnType<typeof createTestContext>>;
let rotating: CoreContext;
let retired: CoreContext;
beforeAll(async () => {
  ctx = await createTestContext();
  const withKeys = (IDENTITY_HASH_KEYS: string): CoreContext => ({
    ...ctx,
    config: { ...ctx.config, IDENTITY_HASH_KEYS: loadConfig({ IDENTITY_HASH_KEYS }).IDENTITY_HASH_KEYS },
  });
  rotating = withKeys(rotatedKeyring("t2", TEST_KEYS.IDENTITY_HASH_KEYS));
  retired = withKeys(rotatedKeyring("t2", TEST_KEYS.IDENTITY_HASH_KEYS).split(",")[0]!);
});
afterAll(async () => ctx.dispose());

const AADHAAR = "234123412346";
const startBody = (email: string) => ({ country: "IN", name: "Asha Rao", email, phone: "+919876543210" });

async function verifiedUser(context: CoreContext, userId: string) {
  await startKyc(context, userId, startBody(`${userId}@example.com`), { ip: null });
  await verifyIdentityNumber(context, userId, "aadhaar", { document_number: AADHAAR });
  return (await findUserSubmission(context, userId))!;
}

async function holdersSeenBy(context: CoreContext, userId: string): Promise<number> {
  const submission = (await findUserSubmission(context, userId))!;
  const facts = await computeFacts(context, submission, await livePublishedRuleSet(context));
  return facts.duplicate_identity_number_users;
}

describe("identity numbers across a key rotation", () => {
  it("match a number recorded before the rotation, and stop matching it for numbers recorded after its version is retired", async () => {
    const before = await verifiedUser(ctx, "before-rotation");
    expect(before.identity_numbers.aadhaar?.hashes).toHaveLength(1);
    expect(await holdersSeenBy(ctx, "before-rotation")).toBe(0);

    // During the rotation a number is claimed under both versions: it meets the older record.
    const during = await verifiedUser(rotating, "during-rotation");
    expect(during.identity_numbers.aadhaar?.hashes).toHaveLength(2);
    expect(during.identity_numbers.aadhaar?.hash).toBe(during.identity_numbers.aadhaar?.hashes?.[0]);
    expect(await holdersSeenBy(rotating, "during-rotation")).toBe(1);
    // ...and the older record meets it, through the claim under the older version.
    expect(await holdersSeenBy(rotating, "before-rotation")).toBe(1);

    // After the older version is retired, a new number is hashed under t2 alone: it meets the one
    // recorded during the rotation, not the one recorded only under t1. Stored claims still meet
    // each other (a claim is looked up by its stored hash, which needs no key).
    await verifiedUser(retired, "after-retirement");
    expect(await holdersSeenBy(retired, "after-retirement")).toBe(1);
    expect(await holdersSeenBy(retired, "during-rotation")).toBe(2);
    expect(await holdersSeenBy(retired, "before-rotation")).toBe(1);
  });

  it("answers a number recorded under an older version as the same number, and writes nothing", async () => {
    const recorded = await verifiedUser(ctx, "re-verifying");
    const again = await verifyIdentityNumber(rotating, "re-verifying", "aadhaar", { document_number: AADHAAR });
    expect(again.status).toBe("verified");
    expect((await findUserSubmission(ctx, "re-verifying"))?.version).toBe(recorded.version);
  });
});

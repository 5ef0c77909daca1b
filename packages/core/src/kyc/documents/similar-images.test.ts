import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { hammingDistance } from "./image-checks";
import { findSimilarImages, imageHashBandItems, MAX_DUPLICATE_DISTANCE } from "./similar-images";

/**
 * The 4-band pHash index against an oracle (plain Hamming distance over every stored hash): for
 * random stored pictures and random probes, findSimilarImages returns exactly the other users'
 * pictures within MAX_DUPLICATE_DISTANCE bits, each with its true distance, and never the
 * caller's own. Probes are made near stored hashes (0-6 flipped bits) so both sides of the
 * threshold are exercised, not only strangers.
 */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const hex16 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((value) => value.toString(16).padStart(16, "0"));
const flip = (phash: string, bits: number[]) => {
  let value = BigInt(`0x${phash}`);
  for (const bit of new Set(bits)) value ^= 1n << BigInt(bit);
  return value.toString(16).padStart(16, "0");
};

describe("findSimilarImages (4-band pHash index)", () => {
  it("finds exactly the other users' pictures within the threshold, with their distances", async () => {
    const users = ["u1", "u2", "u3"].map((name) => `${name}-${randomUUID()}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ phash: hex16, user: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        async (pictures, pick, flips, caller) => {
          const stored = pictures.map((picture) => ({
            ...picture,
            userId: users[picture.user]!,
            submissionId: randomUUID(),
          }));
          await Promise.all(
            stored.flatMap((picture) =>
              imageHashBandItems(
                picture.phash,
                { id: picture.submissionId, user_id: picture.userId },
                "passport",
                `${picture.userId}/x`,
                "2026-01-01T00:00:00.000Z",
              ).map((Item) => ctx.db.doc.send(new PutCommand({ TableName: ctx.db.table, Item }))),
            ),
          );
          const probe = flip(stored[pick % stored.length]!.phash, flips);
          const found = await findSimilarImages(ctx, probe, users[caller]!);
          const ours = new Set<string>(stored.map((picture) => picture.submissionId));
          const expected = stored
            .filter(
              (picture) =>
                picture.userId !== users[caller] && hammingDistance(probe, picture.phash) <= MAX_DUPLICATE_DISTANCE,
            )
            .map((picture) => ({
              userId: picture.userId,
              submissionId: picture.submissionId,
              documentType: "passport",
              distance: hammingDistance(probe, picture.phash),
            }));
          const sort = (rows: { submissionId: string }[]) =>
            [...rows].sort((a, b) => a.submissionId.localeCompare(b.submissionId));
          expect(sort(found.filter((row) => ours.has(row.submissionId)))).toEqual(sort(expected));
        },
      ),
      { numRuns: 40 },
    );
    // The ceiling leaves room for a machine shared with the rest of the suite.
  }, 120_000);
});

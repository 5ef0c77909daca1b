import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { AppError } from "../../shared/errors";
import { UPLOAD_LEASE_MS, withUploadLease } from "./upload-lease";

/**
 * The per-submission upload lease on DynamoDB Local, with a clock the test moves: one holder at a
 * time, a busy submission answered 409 kyc_submission_busy with Retry-After after the wait, a
 * waiter served once the holder is done, and a dead holder's lease taken over once it expired.
 */

let now = Date.parse("2026-03-01T10:00:00.000Z");
let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(now) });
});
afterAll(async () => ctx.dispose());

/** A piece of work the test finishes when it wants, and a promise that says it started. */
function heldWork() {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { running, finish, work: async () => (started(), await done, "first") };
}

const busyOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("upload lease (one upload per submission at a time)", () => {
  it("answers 409 kyc_submission_busy with Retry-After while held, and frees the lease when the work ends", async () => {
    const submissionId = randomUUID();
    const first = heldWork();
    const holding = withUploadLease(ctx, submissionId, 0, first.work);
    await first.running;

    const refused = await busyOf(withUploadLease(ctx, submissionId, 0, async () => "never"));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: "kyc_submission_busy", headers: { "Retry-After": "1" } });
    // Another submission is not held up.
    expect(await withUploadLease(ctx, randomUUID(), 0, async () => "other")).toBe("other");

    first.finish();
    expect(await holding).toBe("first");
    expect(await withUploadLease(ctx, submissionId, 0, async () => "next")).toBe("next");
  });

  it("a waiter gets the lease when the holder finishes within its wait", async () => {
    const submissionId = randomUUID();
    const first = heldWork();
    const holding = withUploadLease(ctx, submissionId, 0, first.work);
    await first.running;
    let secondRan = false;
    const waiting = withUploadLease(ctx, submissionId, 20_000, async () => {
      secondRan = true;
      return "second";
    });
    expect(secondRan).toBe(false);
    first.finish();
    expect(await holding).toBe("first");
    expect(await waiting).toBe("second");
  });

  it("frees the lease when the work throws, and passes the error on", async () => {
    const submissionId = randomUUID();
    await expect(
      withUploadLease(ctx, submissionId, 0, async () => Promise.reject(new Error("decode failed"))),
    ).rejects.toThrow("decode failed");
    expect(await withUploadLease(ctx, submissionId, 0, async () => "after")).toBe("after");
  });

  it("takes over a lease whose holder never released it, once it expired", async () => {
    const submissionId = randomUUID();
    const dead = heldWork();
    // Never finished: the holder is as good as a crashed process.
    void withUploadLease(ctx, submissionId, 0, dead.work);
    await dead.running;
    now += UPLOAD_LEASE_MS - 1;
    expect(await busyOf(withUploadLease(ctx, submissionId, 0, async () => "too early"))).toMatchObject({
      code: "kyc_submission_busy",
    });
    now += 1;
    expect(await withUploadLease(ctx, submissionId, 0, async () => "taken over")).toBe("taken over");
    dead.finish();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { AppError } from "../shared/errors";
import type { KycSubmission } from "./model";
import { pendingSubmissionFields } from "./start";
import { activeSubmissionKey } from "./keys";
import {
  changeSubmission,
  createSubmission,
  findUserSubmission,
  getSubmission,
  listHistory,
  SYSTEM_ACTOR,
  type NewSubmission,
} from "./submissions";

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const applicant = { id: "applicant", name: "Asha Rao", role: "applicant" } as const;

function fields(userId: string): NewSubmission {
  return pendingSubmissionFields(
    userId,
    { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210", amount: 50_000 },
    { ip: null },
  );
}

const started = {
  actor: applicant,
  action: "started",
  from: null,
  to: "pending" as const,
  note: null,
  event: { type: "verificationStarted" as const, data: { country: "IN" } },
};

describe("the submission store", () => {
  it("gives one submission to concurrent starts of the same user and a 409 to the others", async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => createSubmission(ctx, fields("racer"), started)),
    );
    const created = outcomes.filter(
      (outcome): outcome is PromiseFulfilledResult<KycSubmission> => outcome.status === "fulfilled",
    );
    expect(created).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome.status === "rejected")) {
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(((outcome as PromiseRejectedResult).reason as AppError).message).toContain("already has a KYC submission");
    }
    expect((await findUserSubmission(ctx, "racer"))?.id).toBe(created[0]!.value.id);
  });

  it("lets a rejected applicant start again and points at the new submission", async () => {
    const first = await createSubmission(ctx, fields("again"), started);
    await changeSubmission(ctx, first.id, (current) => ({
      next: { ...current, status: "rejected" },
      entries: [
        { actor: SYSTEM_ACTOR, action: "decided", from: current.status, to: "rejected", note: "test", event: null },
      ],
    }));
    const second = await createSubmission(ctx, fields("again"), started);
    expect(second.id).not.toBe(first.id);
    expect((await findUserSubmission(ctx, "again"))?.id).toBe(second.id);
  });

  it("never leaves two live submissions when a restart races a reviewer reopening the rejected one", async () => {
    for (let round = 0; round < 6; round += 1) {
      const userId = `reopen-race-${round}`;
      const first = await createSubmission(ctx, fields(userId), started);
      await changeSubmission(ctx, first.id, (current) => ({
        next: { ...current, status: "rejected" },
        entries: [
          { actor: SYSTEM_ACTOR, action: "rejected", from: current.status, to: "rejected", note: null, event: null },
        ],
      }));
      const [restart, reopen] = await Promise.allSettled([
        createSubmission(ctx, fields(userId), started),
        changeSubmission(ctx, first.id, (current) => {
          if (current.status !== "rejected") return null;
          return {
            next: { ...current, status: "under_review" },
            entries: [
              {
                actor: SYSTEM_ACTOR,
                action: "reopened",
                from: "rejected",
                to: "under_review",
                note: "second look",
                event: null,
              },
            ],
            conditions: [
              { key: activeSubmissionKey(userId), expression: "submission_id = :id", values: { ":id": current.id } },
            ],
          };
        }),
      ]);
      const active = await findUserSubmission(ctx, userId);
      const old = await getSubmission(ctx, first.id);
      if (restart.status === "fulfilled") {
        expect(active?.id).toBe(restart.value.id);
        expect(old?.status).toBe("rejected");
      } else {
        expect(reopen.status).toBe("fulfilled");
        expect(active?.id).toBe(first.id);
        expect(old?.status).toBe("under_review");
      }
    }
  });

  it("commits concurrent changes one after the other, each with its history entry, none lost", async () => {
    const submission = await createSubmission(ctx, fields("busy"), started);
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        changeSubmission(ctx, submission.id, (current) => ({
          next: { ...current, notes: `${current.notes}${index};` },
          entries: [{ actor: SYSTEM_ACTOR, action: "noted", from: null, to: null, note: String(index), event: null }],
        })),
      ),
    );
    const history = await listHistory(ctx, submission.id);
    expect(history.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const final = await findUserSubmission(ctx, "busy");
    expect(final?.version).toBe(9);
    expect(final?.notes.split(";").filter(Boolean).sort()).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  });

  it("changes nothing when the change refuses", async () => {
    const submission = await createSubmission(ctx, fields("refused"), started);
    await expect(
      changeSubmission(ctx, submission.id, () => {
        throw new AppError(409, "nope", "Not now");
      }),
    ).rejects.toThrow("Not now");
    expect((await listHistory(ctx, submission.id)).length).toBe(1);
  });
});

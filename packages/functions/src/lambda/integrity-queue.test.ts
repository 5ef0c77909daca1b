import type { SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { getIntegrityJob, startIntegrityJob } from "@fintech/core/ledger/integrity-jobs";
import { INTEGRITY_SETTLE_MS } from "@fintech/core/ledger/integrity-model";
import { integrityCheck } from "@fintech/core/ledger/reports";
import { createAccount, deposit } from "@fintech/core/ledger/service";
import { IntegrityStepMessage, runIntegrityMessages, SqsIntegrityQueue, STEP_RESERVE_MS } from "./integrity-queue";

/** The cloud worker's loop: steps while the invocation has time, then the job goes back on the queue. */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let offsetMs = 0;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(Date.now() + offsetMs) });
  const { account } = await createAccount(
    ctx,
    "queue-owner",
    { name: "Everyday", currency: "EUR", type: "bank" },
    null,
  );
  await deposit(ctx, "queue-owner", { account_id: account.id, amount: "80.00" }, null);
  offsetMs += INTEGRITY_SETTLE_MS + 1_000;
});
afterAll(async () => ctx.dispose());

const QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/123456789012/IntegrityJobs";

/** A queue whose sends are kept as messages the test delivers, as SQS would. */
function recordingQueue() {
  const sent: { body: string; delaySeconds: number }[] = [];
  const queue = new SqsIntegrityQueue(async (command: SendMessageCommand) => {
    expect(command.input.QueueUrl).toBe(QUEUE_URL);
    sent.push({ body: command.input.MessageBody!, delaySeconds: command.input.DelaySeconds ?? 0 });
    return {};
  }, QUEUE_URL);
  return { queue, sent };
}

/** An invocation with room for `steps` steps: remaining time drops by a step's worth on every look. */
function invocationWithRoomFor(steps: number) {
  let looks = 0;
  return () => STEP_RESERVE_MS + (steps - ++looks) * 1_000;
}

describe("the integrity worker's messages", { timeout: 180_000 }, () => {
  it("runs a job over several invocations, each sending the job on until it finishes", async () => {
    const { queue, sent } = recordingQueue();
    const job = await startIntegrityJob({ ...ctx, integrityJobs: queue }, { id: "admin", name: "Admin" });
    expect(sent).toEqual([{ body: JSON.stringify({ jobId: job.id }), delaySeconds: 0 }]);

    let invocations = 0;
    while (sent.length > 0) {
      const message = sent.shift()!;
      invocations += 1;
      const reply = await runIntegrityMessages(
        ctx,
        queue,
        [{ messageId: `m${invocations}`, body: message.body }],
        invocationWithRoomFor(3),
      );
      expect(reply).toEqual({ batchItemFailures: [] });
      expect(invocations).toBeLessThan(1_000);
    }
    const finished = await getIntegrityJob(ctx, job.id);
    expect(finished.status).toBe("succeeded");
    // Three steps per invocation: the job took several invocations, and no step more than needed.
    expect(invocations).toBe(Math.ceil(finished.progress.pages / 3));
    expect(finished.result).toMatchObject({
      ok: true,
      journals_checked: (await integrityCheck(ctx, "ledger")).journals_checked,
    });
  });

  it("reports a message whose job could not be sent on, and drops one that names no job", async () => {
    const job = await startIntegrityJob(ctx, { id: "admin", name: "Admin" });
    const unreachable = new SqsIntegrityQueue(() => Promise.reject(new Error("SQS unreachable")), QUEUE_URL);
    const reply = await runIntegrityMessages(
      ctx,
      unreachable,
      [
        { messageId: "not-json", body: "{" },
        { messageId: "not-a-job", body: JSON.stringify({ jobId: "../../etc" }) },
        { messageId: "real", body: JSON.stringify({ jobId: job.id }) },
      ],
      invocationWithRoomFor(1),
    );
    expect(reply).toEqual({ batchItemFailures: [{ itemIdentifier: "real" }] });
    // The step it ran is kept: the redelivered message goes on from there.
    expect((await getIntegrityJob(ctx, job.id)).progress.pages).toBe(1);
    const { queue } = recordingQueue();
    await runIntegrityMessages(
      ctx,
      queue,
      [{ messageId: "again", body: JSON.stringify({ jobId: job.id }) }],
      () => STEP_RESERVE_MS + 60_000,
    );
    expect((await getIntegrityJob(ctx, job.id)).status).toBe("succeeded");
  });

  it("accepts only job ids in a message", () => {
    expect(IntegrityStepMessage.safeParse({ jobId: "00000000-0000-4000-8000-000000000000" }).success).toBe(true);
    for (const jobId of ["", "x", "00000000-0000-4000-8000-00000000000g", 7])
      expect(IntegrityStepMessage.safeParse({ jobId }).success).toBe(false);
  });
});

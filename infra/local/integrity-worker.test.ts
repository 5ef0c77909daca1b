import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIntegrityJob, startIntegrityJob } from "@fintech/core/ledger/integrity-jobs";
import { INTEGRITY_SETTLE_MS } from "@fintech/core/ledger/integrity-model";
import { integrityCheck } from "@fintech/core/ledger/reports";
import { createAccount, deposit, setJournalStatus, transfer } from "@fintech/core/ledger/service";
import { LocalIntegrityWorker } from "./integrity-worker";
import { createTestContext } from "@fintech/testing/context";

/** The embedded stack's integrity worker runs a started job to its end, and resumes one after a restart. */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let offsetMs = 0;
const ADMIN = { id: "admin", name: "Local Admin" };
const SMALL_STEPS = { scanPageItems: 50, maxSumsPerStep: 20, comparePageAccounts: 5 };

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(Date.now() + offsetMs) });
  const owner = "local-worker-owner";
  const first = (
    await createAccount(ctx, owner, { name: "Everyday", currency: "USD", type: "bank", initial_balance: "40.00" }, null)
  ).account;
  const second = (await createAccount(ctx, owner, { name: "Savings", currency: "USD", type: "bank" }, null)).account;
  const funded = await deposit(ctx, owner, { account_id: first.id, amount: "300.00" }, null);
  await setJournalStatus(ctx, owner, (JSON.parse(funded.body) as { data: { id: string } }).data.id, "post", null);
  await transfer(ctx, owner, { from_account_id: first.id, to_account_id: second.id, amount: "5.00" }, null);
  offsetMs += INTEGRITY_SETTLE_MS + 1_000;
});
afterAll(async () => ctx.dispose());

describe("the local integrity worker", { timeout: 180_000 }, () => {
  it("completes a job it was given", async () => {
    const worker = new LocalIntegrityWorker({ limits: SMALL_STEPS });
    const core = { ...ctx, integrityJobs: worker };
    worker.start(core);
    try {
      const job = await startIntegrityJob(core, ADMIN);
      await worker.idle();
      const done = await getIntegrityJob(ctx, job.id);
      const reference = await integrityCheck(ctx, "ledger");
      expect(done).toMatchObject({
        status: "succeeded",
        progress: { percent: 100, phase: "done" },
        result: { ok: true },
      });
      expect(done.result!.journals_checked).toBe(reference.journals_checked);
      expect(done.result!.accounts_checked).toBe(reference.accounts_checked);
      expect(worker.stats.steps).toBeGreaterThanOrEqual(done.progress.pages);
    } finally {
      await worker.stop();
    }
  });

  it("resumes the job that holds the ledger when it starts, as after a restart", async () => {
    // Started while no worker ran (the process stopped right after the start): queued, untouched.
    const job = await startIntegrityJob(ctx, ADMIN);
    expect((await getIntegrityJob(ctx, job.id)).status).toBe("queued");
    const worker = new LocalIntegrityWorker({ limits: SMALL_STEPS }).start({ ...ctx });
    await worker.idle();
    await worker.stop();
    expect((await getIntegrityJob(ctx, job.id)).status).toBe("succeeded");
  });

  it("stops between steps and leaves the job for the next worker", async () => {
    const first = new LocalIntegrityWorker({ limits: { scanPageItems: 5, maxSumsPerStep: 3, comparePageAccounts: 1 } });
    const core = { ...ctx, integrityJobs: first };
    first.start(core);
    const job = await startIntegrityJob(core, ADMIN);
    await first.stop();
    const stoppedAt = await getIntegrityJob(ctx, job.id);
    expect(stoppedAt.status === "queued" || stoppedAt.status === "running").toBe(true);

    const second = new LocalIntegrityWorker({ limits: SMALL_STEPS }).start({ ...ctx });
    await second.idle();
    await second.stop();
    const done = await getIntegrityJob(ctx, job.id);
    expect(done.status).toBe("succeeded");
    expect(done.progress.pages).toBeGreaterThan(stoppedAt.progress.pages);
  });
});

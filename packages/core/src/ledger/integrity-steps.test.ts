import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import type { CoreContext } from "../shared/context";
import { isAppError } from "../shared/errors";
import { CURRENCIES } from "../money/model";
import { chainId, chainPartition, journalKey } from "./keys";
import { latestVersion } from "./balances";
import {
  getIntegrityJob,
  INTEGRITY_MAX_STEP_FAILURES,
  INTEGRITY_STALL_MS,
  latestIntegrityJob,
  latestIntegrityResult,
  startIntegrityJob,
} from "./integrity-jobs";
import { integrityCurrentKey } from "./integrity-keys";
import { INTEGRITY_MESSAGES, INTEGRITY_SETTLE_MS, type IntegrityJob } from "./integrity-model";
import { runIntegrityStep, scanPage, type IntegrityStepLimits } from "./integrity-steps";
import { integrityCheck } from "./reports";
import { createAccount, deposit, setJournalStatus, transfer } from "./service";

/**
 * The paged whole-ledger check against the in-request one (reports.ts integrityCheck) on the
 * same data, with steps made tiny so that a small ledger takes many pages, pages that end early
 * (the per-step cap on sum items) and several comparison pages per shard.
 */

/** A whole job over DynamoDB Local on a loaded 2-core machine takes seconds to tens of seconds. */
const JOB_TIMEOUT_MS = 180_000;
const TINY: IntegrityStepLimits = { scanPageItems: 7, maxSumsPerStep: 3, comparePageAccounts: 2 };
const ADMIN = { id: "admin-1", name: "Ada Admin" };

type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/** A clock the test moves: writes, job starts and stall checks all read it. */
function movableClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => (offsetMs += ms) };
}

const journalIdOf = (written: { body: string }) => (JSON.parse(written.body) as { data: { id: string } }).data.id;

/** Two owners, three currencies, drafts, posted and unposted journals, transfers both ways. */
async function buildLedger(ctx: CoreContext, tag: string) {
  const alice = `${tag}-alice`;
  const bob = `${tag}-bob`;
  const everyday = (
    await createAccount(
      ctx,
      alice,
      { name: "Everyday", currency: "USD", type: "bank", initial_balance: "100.00" },
      null,
    )
  ).account;
  const savings = (await createAccount(ctx, alice, { name: "Savings", currency: "USD", type: "bank" }, null)).account;
  const yen = (await createAccount(ctx, alice, { name: "Yen", currency: "JPY", type: "bank" }, null)).account;
  const euro = (await createAccount(ctx, bob, { name: "Euro", currency: "EUR", type: "bank" }, null)).account;
  const card = (await createAccount(ctx, bob, { name: "Card", currency: "EUR", type: "liability" }, null)).account;
  const journals: string[] = [];
  for (const [owner, account, amount] of [
    [alice, everyday.id, "500.00"],
    [alice, everyday.id, "42.10"],
    [alice, yen.id, "9000"],
    [bob, euro.id, "300.00"],
    [bob, euro.id, "12.34"],
  ] as const) {
    const id = journalIdOf(await deposit(ctx, owner, { account_id: account, amount }, null));
    journals.push(id);
    await setJournalStatus(ctx, owner, id, "post", null);
  }
  journals.push(journalIdOf(await deposit(ctx, alice, { account_id: savings.id, amount: "7.00" }, null)));
  const moved = journalIdOf(
    await transfer(ctx, alice, { from_account_id: everyday.id, to_account_id: savings.id, amount: "120.00" }, null),
  );
  await setJournalStatus(ctx, alice, moved, "post", null);
  await setJournalStatus(ctx, alice, moved, "unpost", null);
  await setJournalStatus(ctx, alice, moved, "post", null);
  journals.push(
    moved,
    journalIdOf(await transfer(ctx, bob, { from_account_id: card.id, to_account_id: euro.id, amount: "50.00" }, null)),
  );
  return { alice, bob, everyday, savings, yen, euro, card, journals };
}

/** Runs the job's steps until it finishes, as a driver would; returns the job and every outcome seen. */
async function runToEnd(ctx: CoreContext, jobId: string, limits: IntegrityStepLimits = TINY) {
  const seen: IntegrityJob[] = [];
  for (let steps = 0; steps < 10_000; steps += 1) {
    const outcome = await runIntegrityStep(ctx, jobId, limits);
    if (outcome.state === "idle") throw new Error("the job went idle under a single runner");
    seen.push(outcome.job);
    if (outcome.state === "finished") return { job: outcome.job, seen };
  }
  throw new Error("the job did not finish");
}

/** The in-request check's findings in an order-free form, to set beside a job's result. */
function findings(check: {
  accounts_checked: number;
  journals_checked: number;
  drift: { account_id: string }[];
  unbalanced_journals: string[];
  ok: boolean;
}) {
  return {
    accounts_checked: check.accounts_checked,
    journals_checked: check.journals_checked,
    drift: [...check.drift].sort((a, b) => (a.account_id < b.account_id ? -1 : 1)),
    unbalanced_journals: [...check.unbalanced_journals].sort(),
    ok: check.ok,
  };
}

/** Ends a job that a test left running, so the next start is not refused. */
async function settle(ctx: CoreContext) {
  const current = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: integrityCurrentKey(), ConsistentRead: true }),
  );
  if (current.Item)
    await runToEnd(ctx, String(current.Item.job_id), {
      scanPageItems: 500,
      maxSumsPerStep: 99,
      comparePageAccounts: 50,
    });
}

describe("the integrity check as a job", { timeout: JOB_TIMEOUT_MS }, () => {
  let ctx: TestContext;
  const clock = movableClock();
  let ledger: Awaited<ReturnType<typeof buildLedger>>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock: clock.now });
    ledger = await buildLedger(ctx, "paged");
    // The job covers the ledger as it stood INTEGRITY_SETTLE_MS before its start: all of it.
    clock.advance(INTEGRITY_SETTLE_MS + 1_000);
  }, 60_000);
  afterAll(async () => ctx.dispose());

  it("finds what the in-request check finds, page by page, with progress that only grows", async () => {
    const started = await startIntegrityJob(ctx, ADMIN);
    expect(started).toMatchObject({
      status: "queued",
      started_by: ADMIN,
      result: null,
      finished_at: null,
      scope: "ledger",
    });
    expect(Date.parse(started.started_at) - Date.parse(started.as_of)).toBe(INTEGRITY_SETTLE_MS);

    const { job, seen } = await runToEnd(ctx, started.id);
    const reference = await integrityCheck(ctx, "ledger");
    expect(reference.ok).toBe(true);
    expect(job.status).toBe("succeeded");
    expect(findings(job.result!)).toEqual(findings(reference));
    expect(job.result).toMatchObject({ drift_count: 0, unbalanced_count: 0, as_of: started.as_of, scope: "ledger" });
    // Every currency's recorded debits equal its credits, posted and pending alike; one row per currency, alphabetical.
    expect(job.result!.currencies.map((row) => row.currency)).toEqual(Object.keys(CURRENCIES).sort());
    expect(job.result!.currencies.every((row) => row.is_balanced)).toBe(true);
    expect(job.result!.currencies.find((row) => row.currency === "JPY")!.posted_debits).toBe(9000);

    // Many small pages, some of them cut short by the cap on sum items per step.
    expect(job.progress.pages).toBeGreaterThan(20);
    expect(job.progress).toMatchObject({
      phase: "done",
      percent: 100,
      journals_checked: reference.journals_checked,
      accounts_checked: reference.accounts_checked,
    });
    const percents = seen.map((view) => view.progress.percent ?? 0);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(seen.some((view) => view.status === "running" && view.progress.phase === "accounts")).toBe(true);

    expect((await getIntegrityJob(ctx, started.id)).result).toEqual(job.result);
    expect((await latestIntegrityJob(ctx))!.id).toBe(started.id);
    const latest = await latestIntegrityResult(ctx);
    expect(latest).toMatchObject({ job: { id: started.id }, result: job.result, age_seconds: expect.any(Number) });
  });

  it("counts a replayed step once: a step committed before its runner crashed, and a duplicate that lost the race", async () => {
    const started = await startIntegrityJob(ctx, ADMIN);
    await runIntegrityStep(ctx, started.id, TINY);
    await runIntegrityStep(ctx, started.id, TINY);

    // A runner whose transaction landed but which died before it knew: its redelivered message
    // runs the job from where the commit left it.
    const dying = withSend(ctx, async (command, send) => {
      const reply = await send(command);
      if (command instanceof TransactWriteCommand) throw new Error("runner died after its commit");
      return reply;
    });
    const crashed = await runIntegrityStep(dying, started.id, TINY);
    // Its attempt to record the "failure" is refused too (the job has moved on): it stops, and
    // the job stays where its commit put it.
    expect(crashed.state).toBe("idle");

    // Two runners read the job at the same step; the first to commit wins, the other writes nothing.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = withSend(ctx, async (command, send) => {
      if (command instanceof TransactWriteCommand) await gate;
      return send(command);
    });
    const loser = runIntegrityStep(slow, started.id, TINY);
    await waitFor(() => slow.transactionsWaiting() === 1);
    expect((await runIntegrityStep(ctx, started.id, TINY)).state).toBe("continue");
    release();
    expect((await loser).state).toBe("idle");

    const { job } = await runToEnd(ctx, started.id);
    expect(findings(job.result!)).toEqual(findings(await integrityCheck(ctx, "ledger")));
  });

  it("reports a broken ledger: a tampered balance and an unbalanced journal, as the in-request check does", async () => {
    const broken = await createTestContext({}, { clock: clock.now });
    try {
      const built = await buildLedger(broken, "broken");
      // A balance version that no journal explains, and a journal whose legs no longer agree.
      const head = await latestVersion(broken, chainId(built.savings.id, null));
      await broken.db.doc.send(
        new UpdateCommand({
          TableName: broken.db.table,
          Key: { pk: chainPartition(head.chain), sk: head.sk },
          UpdateExpression: "SET posted_debits = posted_debits + :extra",
          ExpressionAttributeValues: { ":extra": 1 },
        }),
      );
      const tampered = built.journals[3]!;
      const stored = await broken.db.doc.send(
        new GetCommand({ TableName: broken.db.table, Key: journalKey(tampered) }),
      );
      const entries = (stored.Item!.entries as { amount: number }[]).map((entry, index) =>
        index === 0 ? { ...entry, amount: entry.amount + 5 } : entry,
      );
      await broken.db.doc.send(
        new UpdateCommand({
          TableName: broken.db.table,
          Key: journalKey(tampered),
          UpdateExpression: "SET entries = :entries",
          ExpressionAttributeValues: { ":entries": entries },
        }),
      );
      clock.advance(INTEGRITY_SETTLE_MS + 1_000);

      const started = await startIntegrityJob(broken, ADMIN);
      const { job } = await runToEnd(broken, started.id);
      const reference = await integrityCheck(broken, "ledger");
      expect(reference.ok).toBe(false);
      expect(findings(job.result!)).toEqual(findings(reference));
      expect(job.status).toBe("succeeded");
      expect(job.result).toMatchObject({ ok: false, unbalanced_journals: [tampered], unbalanced_count: 1 });
      expect(job.result!.drift.map((drift) => drift.account_id)).toContain(built.savings.id);
      expect(job.result!.drift_count).toBe(job.result!.drift.length);
      // The tampered balance leaves USD's recorded debits one cent over its credits.
      const usd = job.result!.currencies.find((row) => row.currency === "USD")!;
      expect(usd.posted_debits - usd.posted_credits).toBe(1);
      expect(usd.is_balanced).toBe(false);
    } finally {
      await broken.dispose();
    }
  }, 60_000);

  it("checks the ledger as it stood at as_of while writes go on", async () => {
    const started = await startIntegrityJob(ctx, ADMIN);
    await runIntegrityStep(ctx, started.id, TINY);
    // Writes after the job's moment, some touching pages the scan has yet to read.
    const late = journalIdOf(await deposit(ctx, ledger.alice, { account_id: ledger.savings.id, amount: "1.00" }, null));
    await setJournalStatus(ctx, ledger.alice, late, "post", null);
    await createAccount(
      ctx,
      ledger.bob,
      { name: "Late", currency: "GBP", type: "bank", initial_balance: "3.00" },
      null,
    );
    await setJournalStatus(ctx, ledger.alice, ledger.journals[5]!, "post", null);

    const { job } = await runToEnd(ctx, started.id);
    expect(job.result!.ok).toBe(true);
    // Only the system accounts of GBP existed then, untouched; the late account's opening is not counted.
    expect(job.result!.currencies.find((row) => row.currency === "GBP")).toMatchObject({
      posted_debits: 0,
      posted_credits: 0,
      pending_debits: 0,
      pending_credits: 0,
    });
    const now = await integrityCheck(ctx, "ledger");
    expect(job.result!.journals_checked).toBe(now.journals_checked - 2);
    expect(job.result!.accounts_checked).toBe(now.accounts_checked - 1);
    clock.advance(INTEGRITY_SETTLE_MS);
  });

  it("runs one job at a time; a job that stopped making progress is replaced by the next start", async () => {
    await settle(ctx);
    const first = await startIntegrityJob(ctx, ADMIN);
    const refused = await startIntegrityJob(ctx, ADMIN).catch((error: unknown) => error);
    expect(isAppError(refused) && { status: refused.status, code: refused.code, message: refused.message }).toEqual({
      status: 409,
      code: "integrity_check_running",
      message: INTEGRITY_MESSAGES.running,
    });
    // Two starts at once: exactly one wins.
    await runIntegrityStep(ctx, first.id, TINY);
    clock.advance(INTEGRITY_STALL_MS + 1_000);
    const racing = await Promise.allSettled([startIntegrityJob(ctx, ADMIN), startIntegrityJob(ctx, ADMIN)]);
    expect(racing.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const second = (racing.find((outcome) => outcome.status === "fulfilled") as PromiseFulfilledResult<IntegrityJob>)
      .value;
    expect(await getIntegrityJob(ctx, first.id)).toMatchObject({ status: "failed", error: INTEGRITY_MESSAGES.stalled });
    // The replaced job's own runner can no longer move it.
    expect((await runIntegrityStep(ctx, first.id, TINY)).state).toBe("finished");
    expect((await runToEnd(ctx, second.id)).job.status).toBe("succeeded");
    expect((await latestIntegrityJob(ctx))!.id).toBe(second.id);
  });

  it("retries a failing step with a growing delay, then fails the job and frees the ledger", async () => {
    await settle(ctx);
    const started = await startIntegrityJob(ctx, ADMIN);
    const failing = withSend(ctx, async (command, send) => {
      if (command.constructor.name === "ScanCommand")
        throw Object.assign(new Error("store unreachable"), { name: "TimeoutError" });
      return send(command);
    });
    const delays: number[] = [];
    for (let attempt = 1; attempt < INTEGRITY_MAX_STEP_FAILURES; attempt += 1) {
      const outcome = await runIntegrityStep(failing, started.id, TINY);
      expect(outcome.state).toBe("retry");
      if (outcome.state !== "retry") return;
      delays.push(outcome.delayMs);
      expect(outcome.job.error).toContain("TimeoutError: store unreachable");
    }
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(delays[delays.length - 1]).toBeGreaterThan(delays[0]!);
    const last = await runIntegrityStep(failing, started.id, TINY);
    expect(last).toMatchObject({ state: "finished", job: { status: "failed", result: null } });
    expect((await getIntegrityJob(ctx, started.id)).finished_at).not.toBeNull();
    // The ledger is free again, and the latest result is still the last one that succeeded.
    const next = await startIntegrityJob(ctx, ADMIN);
    expect((await latestIntegrityResult(ctx))!.job.id).not.toBe(started.id);
    await runToEnd(ctx, next.id);
  });

  it("refuses malformed and unknown job ids", async () => {
    const malformed = await getIntegrityJob(ctx, "not-a-job").catch((error: unknown) => error);
    expect(malformed).toMatchObject({ status: 400, code: "invalid_job_id" });
    const unknown = await getIntegrityJob(ctx, "00000000-0000-4000-8000-000000000000").catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 404, code: "integrity_job_not_found" });
    expect(await runIntegrityStep(ctx, "00000000-0000-4000-8000-000000000000")).toEqual({ state: "idle" });
  });

  it("keeps the per-account sums of a job in their own shard partitions", async () => {
    const newest = (await latestIntegrityJob(ctx))!;
    const sums = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `INTEGRITY#${newest.id}#ACCTS#0` },
      }),
    );
    for (const item of sums.Items ?? [])
      expect(item).toMatchObject({ entity: "integrity_sum", job_id: newest.id, expires_at: expect.any(Number) });
  });
});

describe("scanPage", () => {
  const journal = (
    id: string,
    legs: [string, "debit" | "credit", number][],
    history: [string, "draft" | "posted" | "voided"][],
  ) => ({
    pk: `TX#${id}`,
    sk: "TX",
    entity: "journal",
    id,
    owner_id: "o",
    type: "transfer",
    status: history[history.length - 1]![1],
    currency: "USD",
    total_amount: 1,
    description: "",
    entries: legs.map(([account_id, side, amount]) => ({ account_id, account_name: account_id, side, amount })),
    created_at: history[0]![0],
    posted_at: null,
    version: 1,
    history: history.map(([at, status], index) => ({
      operation: index === 0 ? "create" : status === "posted" ? "post" : status === "voided" ? "void" : "unpost",
      status,
      at,
      by: null,
    })),
    idempotency_key: null,
    request_hash: "h",
    created_reply: "{}",
  });

  it("replays each journal as it stood at as_of, and ends the page before the cap on accounts", () => {
    const items = [
      journal(
        "j1",
        [
          ["a", "debit", 10],
          ["b", "credit", 10],
        ],
        [
          ["2026-01-01T00:00:00.000Z", "draft"],
          ["2026-01-02T00:00:00.000Z", "posted"],
        ],
      ),
      journal(
        "j2",
        [
          ["a", "debit", 5],
          ["c", "credit", 5],
        ],
        [["2026-01-03T00:00:00.000Z", "draft"]],
      ),
      journal(
        "j3",
        [
          ["d", "debit", 1],
          ["e", "credit", 2],
        ],
        [["2026-01-01T00:00:00.000Z", "draft"]],
      ),
    ];
    const page = scanPage(items, "2026-01-01T12:00:00.000Z", 3);
    // j1 was a draft then; j2 did not exist yet (taken, not counted); j3 needs two more sums than fit.
    expect(page).toMatchObject({
      journals: 1,
      taken: 2,
      complete: false,
      lastKey: { pk: "TX#j2", sk: "TX" },
      unbalanced: [],
    });
    expect(Object.fromEntries(page.sums)).toEqual({
      a: { totals: { posted_debits: 0, posted_credits: 0, pending_debits: 10, pending_credits: 0 }, account: null },
      b: { totals: { posted_debits: 0, posted_credits: 0, pending_debits: 0, pending_credits: 10 }, account: null },
    });
    const later = scanPage(items, "2026-01-05T00:00:00.000Z", 10);
    expect(later).toMatchObject({ journals: 3, taken: 3, complete: true, unbalanced: ["j3"] });
    expect(later.sums.get("a")!.totals).toEqual({
      posted_debits: 10,
      posted_credits: 0,
      pending_debits: 5,
      pending_credits: 0,
    });
  });
});

/** A store command as the interceptors see it: its class tells what it is. */
type StoreCommand = { constructor: { name: string } };

/** A context whose store calls go through `intercept` (to crash, delay or fail them on purpose). */
function withSend(
  ctx: CoreContext,
  intercept: (command: StoreCommand, send: (command: StoreCommand) => Promise<unknown>) => Promise<unknown>,
) {
  let waiting = 0;
  const send = (command: StoreCommand) => ctx.db.doc.send(command as never);
  const doc = {
    send: async (command: StoreCommand) => {
      const isTransaction = (command as unknown) instanceof TransactWriteCommand;
      if (isTransaction) waiting += 1;
      try {
        return await intercept(command, send);
      } finally {
        if (isTransaction) waiting -= 1;
      }
    },
  };
  return Object.assign(
    { ...ctx, db: { ...ctx.db, doc: doc as unknown as CoreContext["db"]["doc"] } },
    { transactionsWaiting: () => waiting },
  );
}

async function waitFor(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { INTEGRITY_MESSAGES, INTEGRITY_SETTLE_MS, IntegrityJob } from "@fintech/core/ledger/integrity-model";
import { runIntegrityStep } from "@fintech/core/ledger/integrity-steps";
import type { CoreContext } from "@fintech/core/shared/context";
import { createApp } from "../app";

/**
 * The whole-ledger integrity check over HTTP: admins start a job (202), follow it and read the
 * latest stored result; GET /integrity/ledger answers from that result and never scans;
 * users keep their own bounded check and never reach the admin routes.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let clockOffsetMs = 0;
let adminToken: string;
let user: { token: string; user: { id: string } };

/** A whole job over DynamoDB Local on a loaded 2-core machine takes seconds to tens of seconds. */
const JOB_TIMEOUT_MS = 180_000;
const JOBS = "/api/v1/ledger/integrity/jobs";
const LEDGER_RESULT = "/api/v1/ledger/integrity/ledger";
const UNKNOWN_JOB = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(Date.now() + clockOffsetMs) });
  user = await t.signUp("integrity-user@example.com");
  await seedAdminFromEnv(t.core, {
    ADMIN_EMAIL: "integrity-admin@example.com",
    ADMIN_PASSWORD: "admin password 1",
    ADMIN_FIRST_NAME: "Ada",
    ADMIN_LAST_NAME: "Admin",
  });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "integrity-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  const account = await t.call("POST", "/api/v1/ledger/accounts", {
    token: user.token,
    body: { name: "Everyday", currency: "USD" },
  });
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token: user.token,
    body: { account_id: account.body.data.id, amount: "250.00" },
  });
  await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token: user.token });
  // Jobs check the ledger as it stood a settle window before their start: all of the above.
  clockOffsetMs += INTEGRITY_SETTLE_MS + 1_000;
});
afterAll(async () => t.core.dispose());

async function runToEnd(core: CoreContext, jobId: string) {
  for (;;) {
    const outcome = await runIntegrityStep(core, jobId);
    if (outcome.state === "finished") return outcome.job;
    if (outcome.state !== "continue") throw new Error(`unexpected step outcome ${outcome.state}`);
  }
}

/** The app over the test table, its store calls recorded by command name. */
function recordingApp(overrides: Partial<CoreContext> = {}) {
  const commands: string[] = [];
  const doc = {
    send: (command: { constructor: { name: string } }) => {
      commands.push(command.constructor.name);
      return t.core.db.doc.send(command as never);
    },
  };
  const core: CoreContext = {
    ...t.core,
    ...overrides,
    db: { ...t.core.db, doc: doc as unknown as CoreContext["db"]["doc"] },
  };
  const app = createApp(core);
  const call = async (method: string, path: string, token: string) => {
    const response = await app.request(path, { method, headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return { commands, call };
}

describe("refusals", () => {
  const adminRoutes = [
    ["POST", JOBS],
    ["GET", `${JOBS}/latest`],
    ["GET", `${JOBS}/${UNKNOWN_JOB}`],
    ["GET", LEDGER_RESULT],
  ] as const;

  it("answers 401 without a credential and 403 admin_required to a user or an API key, changing nothing", async () => {
    const key = await t.call("POST", "/api/v1/api-keys", { token: adminToken, body: { name: "Admin's key" } });
    expect(key.status).toBe(201);
    for (const [method, path] of adminRoutes) {
      expect((await t.call(method, path)).status, `${method} ${path}`).toBe(401);
      for (const token of [user.token, key.body.data.key as string]) {
        const refused = await t.call(method, path, { token });
        expect({ status: refused.status, code: refused.body.code }, `${method} ${path}`).toEqual({
          status: 403,
          code: "admin_required",
        });
      }
    }
    expect((await t.call("GET", `${JOBS}/latest`, { token: adminToken })).body).toEqual({ data: null });
  });

  it("answers 400 for a malformed job id and 404 for an unknown one", async () => {
    for (const id of ["not-a-job", "x".repeat(5_000), `${UNKNOWN_JOB}0`, "%27%20OR%201%3D1"]) {
      const reply = await t.call("GET", `${JOBS}/${id}`, { token: adminToken });
      expect({ status: reply.status, code: reply.body.code, message: reply.body.message }).toEqual({
        status: 400,
        code: "invalid_job_id",
        message: INTEGRITY_MESSAGES.invalidId,
      });
    }
    const unknown = await t.call("GET", `${JOBS}/${UNKNOWN_JOB}`, { token: adminToken });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({
      status: 404,
      code: "integrity_job_not_found",
    });
  });
});

describe("the whole-ledger check as a job", { timeout: JOB_TIMEOUT_MS }, () => {
  it("says how to start one before any has finished, without scanning", async () => {
    const { commands, call } = recordingApp();
    const reply = await call("GET", LEDGER_RESULT, adminToken);
    expect(reply).toEqual({
      status: 200,
      body: { data: null, job_id: null, age_seconds: null, message: INTEGRITY_MESSAGES.noResult },
    });
    expect(commands).not.toContain("ScanCommand");
  });

  it("starts (202), refuses a second start (409), runs outside the request and stores its result", async () => {
    const enqueued: string[] = [];
    const { commands, call } = recordingApp({ integrityJobs: { enqueue: async (jobId) => void enqueued.push(jobId) } });
    const started = await call("POST", JOBS, adminToken);
    expect(started.status).toBe(202);
    expect(started.body.message).toBe("Integrity check started");
    const job = IntegrityJob.parse(started.body.data);
    expect(job).toMatchObject({
      status: "queued",
      started_by: { name: "Ada Admin" },
      result: null,
      progress: { pages: 0, percent: 0 },
    });
    expect(enqueued).toEqual([job.id]);

    const again = await t.call("POST", JOBS, { token: adminToken });
    expect({ status: again.status, code: again.body.code, message: again.body.message }).toEqual({
      status: 409,
      code: "integrity_check_running",
      message: INTEGRITY_MESSAGES.running,
    });

    expect((await t.call("GET", `${JOBS}/${job.id}`, { token: adminToken })).body.data).toMatchObject({
      id: job.id,
      status: "queued",
    });
    expect((await t.call("GET", `${JOBS}/${job.id.toUpperCase()}`, { token: adminToken })).body.data.id).toBe(job.id);
    expect((await t.call("GET", `${JOBS}/latest`, { token: adminToken })).body.data.id).toBe(job.id);

    // The worker's part: every step outside any request.
    const finished = await runToEnd(t.core, job.id);
    expect(finished.status).toBe("succeeded");
    const read = await call("GET", `${JOBS}/${job.id}`, adminToken);
    expect(IntegrityJob.parse(read.body.data)).toEqual(finished);
    expect(finished.result).toMatchObject({ ok: true, drift: [], unbalanced_journals: [], scope: "ledger" });
    expect(finished.result!.journals_checked).toBe(1);
    expect(finished.result!.accounts_checked).toBeGreaterThan(1);

    const stored = await call("GET", LEDGER_RESULT, adminToken);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ data: finished.result, job_id: job.id, age_seconds: expect.any(Number) });
    expect(stored.body.message).toContain(`finished ${stored.body.age_seconds} seconds ago`);
    // Not one scan in any of these requests: the admin's reads and starts only get, query and write.
    expect(commands).not.toContain("ScanCommand");

    // Free again: the next start is accepted.
    const next = await t.call("POST", JOBS, { token: adminToken });
    expect(next.status).toBe(202);
    await runToEnd(t.core, next.body.data.id);
  });

  it("answers 503 when the job cannot be queued, and leaves the ledger free", async () => {
    const { call } = recordingApp({ integrityJobs: { enqueue: () => Promise.reject(new Error("queue unreachable")) } });
    const refused = await call("POST", JOBS, adminToken);
    expect({ status: refused.status, code: refused.body.code, message: refused.body.message }).toEqual({
      status: 503,
      code: "service_unavailable",
      message: INTEGRITY_MESSAGES.notQueued,
    });
    const failed = (await t.call("GET", `${JOBS}/latest`, { token: adminToken })).body.data;
    expect(failed).toMatchObject({ status: "failed", error: INTEGRITY_MESSAGES.notQueued });
    const next = await t.call("POST", JOBS, { token: adminToken });
    expect(next.status).toBe(202);
    await runToEnd(t.core, next.body.data.id);
  });

  it("keeps a user's own check in the request, over their accounts only", async () => {
    const own = await t.call("GET", "/api/v1/ledger/integrity", { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ scope: "owner", ok: true, accounts_checked: 1, journals_checked: 1 });
  });
});

import { PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { OpsOverview } from "@fintech/core/ops/model";
import { isActiveStatus } from "@fintech/core/payments/model";
import { getPayment } from "@fintech/core/payments/store";
import { advancePayment } from "@fintech/core/payments/worker";
import { breakKey } from "@fintech/core/reconciliation/keys";
import type { BreakClass, BreakStatus } from "@fintech/core/reconciliation/model";

/**
 * GET /api/v1/ops/overview over planted data: who may read it, the recent rows of each table,
 * and the analytics (volume and success rate by rail, journals per minute, open breaks by class).
 * The clock is fixed and moved by hand, so the minute buckets are known.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;
let adminToken: string;
let now = new Date("2026-11-20T10:00:30.000Z");
const clock = () => now;
let payer: Session & { from: string; to: string };

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "ops-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "ops-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  const session = (await t.signUp("ops-overview-payer@example.com")) as Session;
  const account = async (name: string) => {
    const reply = await t.call("POST", "/api/v1/ledger/accounts", {
      token: session.token,
      body: { name, currency: "USD" },
    });
    expect(reply.status).toBe(201);
    return reply.body.data.id as string;
  };
  payer = { ...session, from: await account("Everyday"), to: await account("Savings") };
});
afterAll(() => t.core.dispose());

const overview = (query = "", token = adminToken) => t.call("GET", `/api/v1/ops/overview${query}`, { token });

async function postedDeposit(amount: string): Promise<string> {
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token: payer.token,
    body: { account_id: payer.from, amount },
  });
  expect(deposit.status).toBe(201);
  const id = deposit.body.data.id as string;
  expect((await t.call("POST", `/api/v1/ledger/transactions/${id}/post`, { token: payer.token })).status).toBe(200);
  return id;
}

/** A break as the reconciliation stores it (the fields the console reads). */
async function plantBreak(id: string, breakClass: BreakClass, status: BreakStatus, difference: string | null) {
  const at = now.toISOString();
  const date = "2026-11-19";
  await t.core.db.doc.send(
    new PutCommand({
      TableName: t.core.db.table,
      Item: {
        ...breakKey(id, date),
        id,
        railId: "ach",
        rail: "ACH",
        date,
        class: breakClass,
        status,
        currency: difference === null ? null : "USD",
        difference,
        createdAt: at,
        committed_at: at,
      },
    }),
  );
}

describe("who may read it", () => {
  it("refuses no token (401), a user (403) and a bad limit (400)", async () => {
    expect((await t.call("GET", "/api/v1/ops/overview")).status).toBe(401);
    const asUser = await overview("", payer.token);
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe("admin_required");
    for (const limit of ["0", "101", "abc", "2.5"]) {
      const reply = await overview(`?limit=${limit}`);
      expect(reply.status, limit).toBe(400);
      expect(reply.body.code).toBe("validation_error");
    }
  });
});

describe("the overview over planted data", () => {
  it("lists the recent rows and computes the analytics", async () => {
    // Three journals in minute 10:00 and two in 10:02 (each deposit's journal, posted).
    const early = [await postedDeposit("100.00"), await postedDeposit("50.00"), await postedDeposit("25.00")];
    now = new Date("2026-11-20T10:02:10.000Z");
    const late = [await postedDeposit("10.00"), await postedDeposit("5.00")];
    // A payment run to its end (its own journal is a sixth journal, in its last minute).
    const created = await t.call("POST", "/v1/payments", {
      token: payer.token,
      body: {
        userId: payer.user.id,
        fromAccountId: payer.from,
        toAccountId: payer.to,
        amount: "12.34",
        currency: "USD",
      },
    });
    expect(created.status).toBe(201);
    const paymentId = created.body.payment.paymentId as string;
    for (let step = 0; step < 10; step++) {
      const payment = await getPayment(t.core, paymentId);
      if (!payment || !isActiveStatus(payment.status)) break;
      now = new Date(now.getTime() + 5_000);
      await advancePayment(t.core, paymentId);
    }
    const paid = (await getPayment(t.core, paymentId))!;
    const submission = await seedSubmission(t.core, { userId: payer.user.id });
    await plantBreak("ach_2026-11-19_nofile", "missing_file", "open", null);
    await plantBreak(`ach_2026-11-19_${"a".repeat(32)}~L000000001`, "amount_mismatch", "open", "1.50");
    await plantBreak(`ach_2026-11-19_${"a".repeat(32)}~L000000002`, "amount_mismatch", "open", "-0.25");
    await plantBreak(`ach_2026-11-19_${"a".repeat(32)}~L000000003`, "fee_mismatch", "resolved", "0.10");

    const reply = await overview("?limit=4");
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const data = OpsOverview.parse(reply.body.data);

    // The newest four journals, newest first: the payment's, then the last deposits.
    expect(data.journals).toHaveLength(4);
    expect(data.journals[0]).toMatchObject({ id: paid.journalId, type: "payment" });
    expect(data.journals.slice(1).map((row) => row.id)).toEqual([late[1], late[0], early[2]]);
    expect(data.journals[1]).toMatchObject({ status: "posted", change: "posted", amount: "5.00", currency: "USD" });
    // One row per payment, in its latest state.
    expect(data.payments).toEqual([
      expect.objectContaining({ id: paymentId, status: paid.status, amount: "12.34", railId: paid.railId }),
    ]);
    expect(data.kyc).toEqual([expect.objectContaining({ id: submission.id, change: "submitted", status: "pending" })]);
    expect(data.breaks).toHaveLength(4);

    const rail = data.analytics.rails.find((entry) => entry.railId === paid.railId)!;
    expect(rail.name).toBe(paid.selectedRail);
    const succeeded = paid.status === "completed" ? 1 : 0;
    expect(rail).toMatchObject({ succeeded, failed: paid.attempts.length - succeeded });
    expect(rail.successRate).toBe(succeeded / paid.attempts.length);
    expect(rail.volume).toEqual(succeeded ? [{ currency: "USD", amount: "12.34" }] : []);
    for (const other of data.analytics.rails.filter((entry) => entry.railId !== paid.railId))
      expect(other).toMatchObject({ attempts: 0, successRate: null, volume: [] });

    const minutes = data.analytics.journalsPerMinute;
    expect(minutes.counts).toHaveLength(60);
    expect(minutes.capped).toBe(false);
    const minuteOf = (iso: string) => (Date.parse(iso) - Date.parse(minutes.from)) / 60_000;
    expect(minutes.counts[minuteOf("2026-11-20T10:00:00.000Z")]).toBe(3);
    expect(minutes.counts.reduce((sum, count) => sum + count, 0)).toBe(6);
    // The two late deposits and the payment's journal, settled within the same minute.
    expect(minuteOf("2026-11-20T10:02:00.000Z")).toBe(59);
    expect(minutes.counts[59]).toBe(3);

    expect(data.analytics.openBreaks).toEqual({
      total: 3,
      byClass: [
        { class: "amount_mismatch", count: 2 },
        { class: "missing_file", count: 1 },
      ],
    });
  });
});

describe("what the ops feed costs a write", () => {
  /** The Puts of every transaction sent while `act` runs. */
  async function transactionsOf(act: () => Promise<void>): Promise<Record<string, unknown>[][]> {
    const sent: Record<string, unknown>[][] = [];
    const doc = t.core.db.doc;
    const original = doc.send.bind(doc);
    const spy = vi.spyOn(doc, "send").mockImplementation(((command: unknown) => {
      if (command instanceof TransactWriteCommand)
        sent.push((command.input.TransactItems ?? []).map((item) => item.Put?.Item ?? item.Update?.Key ?? {}));
      return original(command as never);
    }) as typeof doc.send);
    try {
      await act();
    } finally {
      spy.mockRestore();
    }
    return sent;
  }
  const inOpsFeed = (item: Record<string, unknown>) => String(item.gsi2pk ?? "").startsWith("FEED#ops#");

  it("a transfer writes no extra item: its journal item carries the ops index", async () => {
    const [created, posted] = await transactionsOf(async () => {
      const transfer = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
        token: payer.token,
        body: { from_account_id: payer.from, to_account_id: payer.to, amount: "1.00", currency: "USD" },
      });
      expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
      const id = transfer.body.data.id as string;
      expect((await t.call("POST", `/api/v1/ledger/transactions/${id}/post`, { token: payer.token })).status).toBe(200);
    });
    for (const transaction of [created!, posted!]) {
      expect(transaction).toHaveLength(3);
      expect(transaction.filter(inOpsFeed).map((item) => item.entity)).toEqual(["journal"]);
    }
  });

  it("a payment change writes one small ops item in its own transaction", async () => {
    const transactions = await transactionsOf(async () => {
      const created = await t.call("POST", "/v1/payments", {
        token: payer.token,
        body: {
          userId: payer.user.id,
          fromAccountId: payer.from,
          toAccountId: payer.to,
          amount: "1.00",
          currency: "USD",
        },
      });
      expect(created.status).toBe(201);
      const paymentId = created.body.payment.paymentId as string;
      for (let step = 0; step < 10; step++) {
        const payment = await getPayment(t.core, paymentId);
        if (!payment || !isActiveStatus(payment.status)) break;
        now = new Date(now.getTime() + 5_000);
        await advancePayment(t.core, paymentId);
      }
    });
    const changes = transactions.filter((items) => items.some((item) => item.entity === "payment"));
    expect(changes.length).toBeGreaterThanOrEqual(2);
    for (const items of changes) expect(items.filter((item) => item.entity === "ops_payment")).toHaveLength(1);
  });
});

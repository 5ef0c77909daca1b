import { GetObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { fundAccount, openTestAccount, testCaller } from "@fintech/testing/payments";
import { putSettlementObject } from "@fintech/testing/reconciliation";
import { findAccount, systemAccountId, type Account } from "../ledger/accounts";
import { currentBalance } from "../ledger/balances";
import { loadJournal } from "../ledger/journal-reads";
import type { Rail } from "../rails/model";
import { getRail, listRails } from "../rails/store";
import type { PaymentCaller } from "../payments/model";
import { initiatePayment, paymentIdFor } from "../payments/service";
import { advancePayment, attemptOutcome } from "../payments/worker";
import { loadDayExpectations, settlementReference, type SettlementExpectation } from "./expectations";
import { generateSettlementFile, plantedCounts, type PlantedBreak } from "./generator";
import { REJECTION_MESSAGES, settlementFileKey, type ReconciliationBreak } from "./model";
import {
  clearingPositions,
  getBreak,
  listBreaks,
  reconcileNight,
  reconcileObject,
  reopenBreak,
  resolveBreak,
} from "./service";

/**
 * The golden-file tests of settlement reconciliation against DynamoDB Local and the S3 emulator:
 * real external payments completed by the worker write their expectations; a file generated from
 * them with planted breaks of every class yields exactly those breaks, line by line in the result
 * CSV; the same content twice is one reconciliation; journals balance; resolutions move the
 * clearing and suspense positions until the day nets to zero.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
const DAY = "2031-05-14";
let nowMs = Date.parse(`${DAY}T09:00:00.000Z`);

let payer: PaymentCaller;
let checking: Account;
let savings: Account;
let ach: Rail;
const admin = { userId: "admin-1", email: "admin@example.com" };

function findKey(prefix: string, wanted: (paymentId: string) => boolean): string {
  for (let i = 0; i < 100_000; i += 1) {
    const key = `${prefix}-${i}`;
    if (wanted(paymentIdFor(payer.userId, key))) return key;
  }
  throw new Error(`no key found for ${prefix}`);
}

async function runToEnd(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(ctx, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

async function pay(index: number, payee: Record<string, unknown>): Promise<string> {
  const key = findKey(`recon-${index}`, (id) => attemptOutcome(ach, id, 1).succeeded);
  const created = await initiatePayment(
    ctx,
    payer,
    {
      userId: payer.userId,
      fromAccountId: checking.id,
      amount: `${100 + index}.00`,
      currency: "USD",
      forceRail: "ACH",
      ...payee,
    },
    key,
  );
  const paymentId = created.reply.payment.paymentId;
  expect(await runToEnd(paymentId)).toBe("completed");
  return paymentId;
}

const beneficiary = (index: number) => ({
  beneficiary: { name: `Supplier ${index}`, accountNumber: `00012345${index}`, country: "US" },
});

let expectations: SettlementExpectation[];
let planted: PlantedBreak[];
let fileId: string;

const balanceOf = async (code: "suspense" | "clearing") =>
  (await currentBalance(ctx, (await findAccount(ctx, systemAccountId(code, "USD")))!)).balance;

beforeAll(async () => {
  ctx = await createTestContext({ PAYMENT_RATE_LIMIT_PER_MINUTE: "1000" }, { clock: () => new Date(nowMs) });
  await listRails(ctx);
  ach = await getRail(ctx, "ach");
  payer = await testCaller(ctx, "recon-payer@example.com", "Pay");
  checking = await openTestAccount(ctx, payer, "Checking");
  savings = await openTestAccount(ctx, payer, "Savings");
  await fundAccount(ctx, payer, checking, "9000.00");
}, 60_000);
afterAll(async () => ctx.dispose());

describe("settlement expectations", () => {
  it("a completed payment to an external beneficiary writes one; a payment inside the platform writes none", async () => {
    const external: string[] = [];
    for (let index = 0; index < 12; index++) external.push(await pay(index, beneficiary(index)));
    await pay(99, { toAccountId: savings.id });
    const loaded = await loadDayExpectations(ctx, "ach", DAY);
    expect([...loaded.expectations.keys()].sort()).toEqual(external.map((id) => settlementReference(id, 1)).sort());
    const first = loaded.expectations.get(settlementReference(external[0]!, 1))!;
    // ACH on 100.00 USD: fixed 0.05 + network 0.1 % = 0.15.
    expect(first).toMatchObject({ railId: "ach", amountMinor: 10_000, currency: "USD", feeMinor: 15, attempt: 1 });
    expectations = [...loaded.expectations.values()].sort((a, b) => a.reference.localeCompare(b.reference));
  }, 120_000);
});

describe("a generated file with planted breaks of every class", () => {
  it("yields exactly the planted breaks, and the result CSV says so line by line", async () => {
    const clearingBefore = await balanceOf("clearing");
    const suspenseBefore = await balanceOf("suspense");
    const generated = generateSettlementFile(expectations, {
      railId: "ach",
      date: DAY,
      settlementSeconds: ach.settlementSeconds,
      breaks: 10,
    });
    planted = generated.planted;
    expect(plantedCounts(planted)).toEqual({
      amount_mismatch: 2,
      fee_mismatch: 2,
      unknown_to_ledger: 2,
      duplicate_line: 2,
      missing_from_file: 2,
    });
    const body = `${[...generated.rows()].join("\n")}\n`;
    await putSettlementObject(ctx, settlementFileKey("ach", DAY), body);

    const outcome = await reconcileObject(ctx, { key: settlementFileKey("ach", DAY), source: "s3_event" });
    if (outcome.outcome !== "reconciled") throw new Error(`not reconciled: ${JSON.stringify(outcome)}`);
    const file = outcome.file;
    fileId = file.id;
    expect(file).toMatchObject({
      railId: "ach",
      rail: "ACH",
      date: DAY,
      lines: generated.lineCount,
      source: "s3_event",
      breakCounts: {
        amount_mismatch: 2,
        fee_mismatch: 2,
        unknown_to_ledger: 2,
        duplicate_line: 2,
        missing_from_file: 2,
        missing_file: 0,
      },
    });
    expect(file.downloadUrl).toMatch(/^http/);

    const { breaks } = await listBreaks(ctx, { fileId, limit: 100 });
    expect(breaks.map((found) => [found.class, found.reference]).sort()).toEqual(
      planted.map((plant) => [plant.class, plant.reference]).sort(),
    );

    const client = await ctx.storage.client();
    const result = await client.send(
      new GetObjectCommand({ Bucket: ctx.storage.settlementsBucket, Key: `results/${fileId}.csv` }),
    );
    const rows = (await result.Body!.transformToString()).trim().split("\n");
    expect(rows[0]).toBe("line,reference,class,file_amount,ledger_amount,difference,payment_id");
    const classes = rows.slice(1).map((row) => row.split(","));
    expect(classes).toHaveLength(generated.lineCount + 2);
    for (const plant of planted)
      expect(classes.some((cells) => cells[1] === plant.reference && cells[2] === plant.class)).toBe(true);
    const unplanted = classes.filter((cells) => !planted.some((plant) => plant.reference === cells[1]));
    expect(unplanted.every((cells) => cells[2] === "matched")).toBe(true);

    // Journals: posted and balanced.
    for (const id of [...file.suspenseJournalIds, ...file.settlementJournalIds]) {
      const journal = (await loadJournal(ctx, id))!;
      expect(journal.status).toBe("posted");
      const sum = (side: string) =>
        journal.entries.filter((entry) => entry.side === side).reduce((total, entry) => total + entry.amount, 0);
      expect(sum("debit")).toBe(sum("credit"));
    }

    // Suspense holds the unexplained money: every break's suspense amount, and the counter agrees.
    const suspenseSum = breaks.reduce((total, found) => total + Math.round(Number(found.suspense) * 100), 0);
    expect((await balanceOf("suspense")) - suspenseBefore).toBe(suspenseSum);
    const positions = await clearingPositions(ctx, DAY);
    expect(positions.suspense).toContainEqual({ currency: "USD", open: (suspenseSum / 100).toFixed(2) });

    // Clearing: what stays open is the attempts whose lines did not settle (amount mismatches and missing ones).
    const open = breaks
      .filter((found) => found.class === "amount_mismatch" || found.class === "missing_from_file")
      .reduce((total, found) => total + Math.round(Number(found.ledgerAmount) * 100), 0);
    const position = positions.positions.find((item) => item.railId === "ach" && item.currency === "USD")!;
    const expected = expectations.reduce((total, item) => total + item.amountMinor, 0);
    expect(position).toMatchObject({
      expected: (expected / 100).toFixed(2),
      settled: ((expected - open) / 100).toFixed(2),
      open: (open / 100).toFixed(2),
      netsToZero: false,
    });
    expect(clearingBefore - (await balanceOf("clearing"))).toBe(expected - open);
  }, 60_000);

  it("the same file twice, under its key or another, reconciles once", async () => {
    const object = await (await ctx.storage.client()).send(
      new GetObjectCommand({ Bucket: ctx.storage.settlementsBucket, Key: settlementFileKey("ach", DAY) }),
    );
    const body = await object.Body!.transformToString();
    const suspense = await balanceOf("suspense");
    expect(await reconcileObject(ctx, { key: settlementFileKey("ach", DAY), source: "nightly" })).toEqual({
      outcome: "already_reconciled",
      fileId,
    });
    await putSettlementObject(ctx, settlementFileKey("ach", DAY, ".resent"), body);
    expect(await reconcileObject(ctx, { key: settlementFileKey("ach", DAY, ".resent"), source: "s3_event" })).toEqual({
      outcome: "already_reconciled",
      fileId,
    });
    expect(await balanceOf("suspense")).toBe(suspense);
    expect((await listBreaks(ctx, { fileId, limit: 100 })).breaks).toHaveLength(10);
  });
});

describe("resolving breaks", () => {
  const byClass = async (kind: ReconciliationBreak["class"]) =>
    (await listBreaks(ctx, { fileId, class: kind, status: "open", limit: 100 })).breaks;

  it("match, write off and reopen book balanced journals, are audited, and bring the day to zero", async () => {
    const suspenseBefore = await balanceOf("suspense");
    const [fee] = await byClass("fee_mismatch");
    const writtenOff = await resolveBreak(ctx, admin, fee!.id, { action: "write_off", note: "Rail fee rounding" });
    expect(writtenOff).toMatchObject({ status: "resolved", resolution: { action: "write_off", by: admin.email } });
    expect(writtenOff.history.map((entry) => entry.action)).toEqual(["raised", "write_off"]);
    expect(await balanceOf("suspense")).toBe(suspenseBefore - Math.round(Number(fee!.suspense) * 100));

    for (const mismatch of await byClass("amount_mismatch"))
      await resolveBreak(ctx, admin, mismatch.id, {
        action: "match",
        reference: mismatch.reference!,
        note: "Rail confirmed the amount",
      });
    const [missingOne, missingTwo] = await byClass("missing_from_file");
    const [unknown] = await byClass("unknown_to_ledger");
    const matched = await resolveBreak(ctx, admin, unknown!.id, {
      action: "match",
      reference: missingOne!.reference!,
      note: "Typo in the rail's reference",
    });
    expect(matched.resolution).toMatchObject({ action: "match", reference: missingOne!.reference });
    expect((await getBreak(ctx, missingOne!.id)).status).toBe("resolved");
    await resolveBreak(ctx, admin, missingTwo!.id, { action: "write_off", note: "Returned by the bank" });

    const settled = (await clearingPositions(ctx, DAY)).positions.find((item) => item.railId === "ach")!;
    expect(settled).toMatchObject({ open: "0.00", netsToZero: true });

    for (const id of [writtenOff.resolution!.journalId!, matched.resolution!.journalId!]) {
      const journal = (await loadJournal(ctx, id))!;
      expect(journal.status).toBe("posted");
    }

    // Reopen reverses the resolution's journal and the day is open again by that attempt.
    const reopened = await reopenBreak(ctx, admin, missingTwo!.id, { note: "The bank says it never returned it" });
    expect(reopened).toMatchObject({ status: "open", resolution: null });
    expect(reopened.history.map((entry) => entry.action)).toEqual(["raised", "write_off", "reopen"]);
    const reverse = (await loadJournal(ctx, reopened.history[2]!.journalId!))!;
    expect(reverse.status).toBe("posted");
    const again = (await clearingPositions(ctx, DAY)).positions.find((item) => item.railId === "ach")!;
    expect(again).toMatchObject({ open: missingTwo!.ledgerAmount, netsToZero: false });

    // Reopening the partner of a match reopens the match.
    await reopenBreak(ctx, admin, missingOne!.id, { note: "Wrong match" });
    expect((await getBreak(ctx, unknown!.id)).status).toBe("open");
  });

  it("an Idempotency-Key replays, another body under it is refused, a stale or second resolution is a 409", async () => {
    const [duplicate, other] = await byClass("duplicate_line");
    const suspense = await balanceOf("suspense");
    const first = await resolveBreak(ctx, admin, duplicate!.id, { action: "write_off", note: "Dup" }, "key-1");
    const replay = await resolveBreak(ctx, admin, duplicate!.id, { action: "write_off", note: "Dup" }, "key-1");
    expect(replay).toEqual(first);
    expect(await balanceOf("suspense")).toBe(suspense - Math.round(Number(duplicate!.suspense) * 100));
    await expect(
      resolveBreak(ctx, admin, duplicate!.id, { action: "write_off", note: "Other" }, "key-1"),
    ).rejects.toMatchObject({ status: 422, code: "idempotency_key_reused" });
    await expect(resolveBreak(ctx, admin, duplicate!.id, { action: "write_off", note: "Again" })).rejects.toMatchObject(
      {
        status: 409,
        code: "already_resolved",
      },
    );
    const raced = await Promise.allSettled([
      resolveBreak(ctx, admin, other!.id, { action: "write_off", note: "One" }),
      resolveBreak(ctx, admin, other!.id, { action: "match", reference: "NOPE-1", note: "Two" }),
      resolveBreak(ctx, admin, other!.id, { action: "write_off", note: "Three" }),
    ]);
    expect(raced.filter((result) => result.status === "fulfilled").length).toBeGreaterThanOrEqual(1);
    const after = await getBreak(ctx, other!.id);
    expect(after.history.filter((entry) => entry.action === "write_off")).toHaveLength(1);
    await expect(
      resolveBreak(ctx, admin, "ach_2031-05-14_nofile", { action: "write_off", note: "x" }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("the nightly check", () => {
  it("raises one missing_file break for a day with settled attempts and no file, however often it runs", async () => {
    const nextDay = "2031-05-15";
    nowMs = Date.parse(`${nextDay}T10:00:00.000Z`);
    await pay(50, beneficiary(50));
    const first = await reconcileNight(ctx, new Date(`2031-05-16T02:00:00.000Z`));
    expect(first.missingFiles).toEqual([{ railId: "ach", date: nextDay, breakId: `ach_${nextDay}_nofile` }]);
    const second = await reconcileNight(ctx, new Date(`2031-05-16T02:00:00.000Z`));
    expect(second.missingFiles).toHaveLength(1);
    const { breaks } = await listBreaks(ctx, { class: "missing_file", limit: 10 });
    expect(breaks.map((found) => found.id)).toEqual([`ach_${nextDay}_nofile`]);
    await expect(
      resolveBreak(ctx, admin, breaks[0]!.id, { action: "match", reference: "PAY-x-1", note: "n" }),
    ).rejects.toMatchObject({ status: 422 });
    // The day the file arrived has none.
    expect((await reconcileNight(ctx, new Date(`${DAY}T23:00:00.000Z`), DAY)).missingFiles).toEqual([]);
  }, 60_000);

  it("a file that is not a settlement file is recorded with the reason, books nothing, and the day stays missing", async () => {
    const day = "2031-05-15";
    const header = "rail,reference,amount,currency,fee,type,settled_at";
    const line = `ACH,PAY-x-1,1.00,USD,0.00,payment,${day}T10:00:00.000Z`;
    const bad = {
      ".header": { body: `date,amount\n${day},1.00\n`, rejection: REJECTION_MESSAGES.header },
      ".blank": { body: "\n\n", rejection: REJECTION_MESSAGES.empty },
      ".quote": {
        body: `${header}\n${line}\nACH,"PAY-x-2,1.00\n`,
        rejection: /^the file is not valid CSV: Quote Not Closed/,
      },
      ".long": {
        body: `${header}\nACH,${"x".repeat(5_000)}\n`,
        rejection: /^the file is not valid CSV: Max Record Size: .* at line 2$/,
      },
    };
    const suspense = await balanceOf("suspense");
    for (const [suffix, { body, rejection }] of Object.entries(bad)) {
      const key = settlementFileKey("ach", day, suffix);
      await putSettlementObject(ctx, key, body);
      const outcome = await reconcileObject(ctx, { key, source: "s3_event" });
      if (outcome.outcome !== "reconciled") throw new Error(`${suffix}: ${JSON.stringify(outcome)}`);
      expect(outcome.file).toMatchObject({ key, status: "error", lines: 0, totals: [], downloadUrl: null });
      expect(outcome.file.rejection).toMatch(rejection);
      expect((await listBreaks(ctx, { fileId: outcome.file.id, limit: 10 })).breaks).toEqual([]);
      expect(await reconcileObject(ctx, { key, source: "nightly" })).toEqual({
        outcome: "already_reconciled",
        fileId: outcome.file.id,
      });
    }
    expect(await balanceOf("suspense")).toBe(suspense);
    // Rejected files leave the day to a good one: it is still missing.
    expect((await reconcileNight(ctx, new Date("2031-05-16T02:00:00.000Z"))).missingFiles).toHaveLength(1);
  }, 60_000);
});

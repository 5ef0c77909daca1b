import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { currentBalance } from "../ledger/balances";
import { integrityCheck } from "../ledger/reports";
import { loadJournal } from "../ledger/journal-reads";
import { AppError } from "../shared/errors";
import { MAX_STEP_FAILURES } from "./model";
import {
  fundAccount,
  openTestAccount,
  setErrorInjection,
  testCaller,
  withFailingSteps,
} from "@fintech/testing/payments";
import { runPaymentStep } from "./runner";
import { getPayment, paymentHistory } from "./store";
import { initiatePayment } from "./service";
import { duePayments } from "./worker";

/**
 * Property: whatever payments are made (payee kind, amount, rail) and however their attempts turn
 * out (rails failing by error injection, retries, organic failures, steps that always throw), and
 * in whatever order the drivers' runs advance them, every journal balances, nothing drifts from
 * its journals, no customer account goes below zero, every payment ends completed, failed or (a
 * step that always throws) parked with its hold voided and nothing left due, none completes twice,
 * and the payer's balance is its funding less exactly the completed payments' amount + fee.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let nowMs = Date.parse("2026-03-03T09:00:00.000Z");
let run = 0;

const RAILS = ["ACH", "Card", "Wire", "SEPA"] as const;
const PAYEE_KINDS = ["own", "email", "external"] as const;

const paymentCommand = fc.record({
  amountCents: fc.integer({ min: 1, max: 40_000 }),
  payee: fc.constantFrom(...PAYEE_KINDS),
  rail: fc.option(fc.constantFrom(...RAILS), { nil: undefined }),
  /** How many worker steps to run right after creating it (0: left for the end). */
  steps: fc.integer({ min: 0, max: 3 }),
  /** Every step of it throws (about one payment in five). */
  poisoned: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
});

/** Payments whose steps always throw; the drivers run every step through `driver`. */
const poisoned = new Set<string>();
let driver: TestContext;

async function step(paymentId: string): Promise<boolean> {
  const run = await runPaymentStep(driver, paymentId);
  if (!run.runAt) return false;
  nowMs = Math.max(nowMs, Date.parse(run.runAt));
  return true;
}

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(nowMs) });
  driver = withFailingSteps(ctx, poisoned);
});
afterAll(async () => ctx.dispose());

describe("payments keep the ledger whole", () => {
  it("random payments with random outcomes: balanced journals, no overdraft, exact payer balance", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60_000 }),
        fc.record({ ach: fc.constantFrom(0, 50, 100), card: fc.constantFrom(0, 50, 100) }),
        fc.array(paymentCommand, { minLength: 1, maxLength: 5 }),
        async (fundingCents, injection, commands) => {
          run += 1;
          await setErrorInjection(ctx, "ach", injection.ach);
          await setErrorInjection(ctx, "card", injection.card);
          const payer = await testCaller(ctx, `payer-${run}@example.com`);
          const payee = await testCaller(ctx, `payee-${run}@example.com`);
          const from = await openTestAccount(ctx, payer, "Main");
          const own = await openTestAccount(ctx, payer, "Own other");
          const payeeAccount = await openTestAccount(ctx, payee, "Payee");
          if (fundingCents > 0) await fundAccount(ctx, payer, from, (fundingCents / 100).toFixed(2));
          const created: string[] = [];
          for (const command of commands) {
            const payeeFields =
              command.payee === "own"
                ? { toAccountId: own.id }
                : command.payee === "email"
                  ? { toEmail: payee.user.email }
                  : { beneficiary: { name: "Outside Ltd", accountNumber: "GB29NWBK60161331926819", country: "GB" } };
            try {
              const reply = await initiatePayment(
                ctx,
                payer,
                {
                  userId: payer.userId,
                  fromAccountId: from.id,
                  amount: (command.amountCents / 100).toFixed(2),
                  currency: "USD",
                  ...(command.rail ? { forceRail: command.rail } : {}),
                  ...payeeFields,
                },
                null,
              );
              created.push(reply.reply.payment.paymentId);
              if (command.poisoned) poisoned.add(reply.reply.payment.paymentId);
              for (let i = 0; i < command.steps; i += 1) if (!(await step(reply.reply.payment.paymentId))) break;
            } catch (error) {
              // The only refusals a valid request can get here: the hold does not fit the available
              // balance, or the forced rail cannot carry it (SEPA carries EUR only; ACH and Wire
              // reach the US only; Wire carries at least 1.00).
              expect(error).toBeInstanceOf(AppError);
              expect(command.rail ? ["insufficient_funds", "rail_ineligible"] : ["insufficient_funds"]).toContain(
                (error as AppError).code,
              );
            }
          }
          // The sweeper finishes the rest, as a restarted worker would (each round later than any
          // retry wait, so a step that always throws fails once a round until it is parked).
          for (let round = 0; round < 2 * MAX_STEP_FAILURES + 10; round += 1) {
            const due = await duePayments(ctx, new Date(nowMs + 10_000_000));
            const mine = due.filter((id) => created.includes(id));
            if (mine.length === 0) break;
            nowMs += 10_000_000;
            await Promise.all(mine.map((id) => runPaymentStep(driver, id)));
          }
          let spent = 0;
          for (const id of created) {
            const payment = (await getPayment(ctx, id))!;
            expect(payment.status).toEqual(poisoned.has(id) ? "parked" : expect.stringMatching(/^(completed|failed)$/));
            expect(payment.nextDueAt).toBeNull();
            expect(payment.attempts.length).toBeLessThanOrEqual(2);
            if (!poisoned.has(id)) expect(payment.attempts.length).toBeGreaterThanOrEqual(1);
            const endings = (await paymentHistory(ctx, id)).filter(
              (entry) =>
                entry.event?.type === "paymentCompleted" || entry.status === "failed" || entry.status === "parked",
            );
            expect(endings).toHaveLength(1);
            const settlement = (await loadJournal(ctx, payment.journalId))!.history.map((record) => record.operation);
            expect(settlement).toEqual(["create", payment.status === "completed" ? "post" : "void"]);
            if (payment.status === "completed") spent += payment.amountMinor + payment.feeMinor;
          }
          const balance = await currentBalance(ctx, from);
          expect(balance.balance).toBe(fundingCents - spent);
          expect(balance.pending_out).toBe(0);
          for (const account of [from, own, payeeAccount]) {
            const figures = await currentBalance(ctx, account);
            expect(figures.balance).toBeGreaterThanOrEqual(0);
            expect(figures.available).toBeGreaterThanOrEqual(0);
          }
          const check = await integrityCheck(ctx, "ledger");
          expect(check.unbalanced_journals).toEqual([]);
          expect(check.drift).toEqual([]);
        },
      ),
      { numRuns: 10 },
    );
  }, 240_000);
});

import type { CoreContext } from "@fintech/core/shared/context";
import type { Account } from "@fintech/core/ledger/accounts";
import { deposit, setJournalStatus } from "@fintech/core/ledger/service";
import { changeSubmission, SYSTEM_ACTOR } from "@fintech/core/kyc/submissions";
import type { PaymentCaller } from "@fintech/core/payments/model";
import { initiatePayment, paymentIdFor } from "@fintech/core/payments/service";
import { advancePayment, attemptOutcome } from "@fintech/core/payments/worker";
import { getRail, listRails } from "@fintech/core/rails/store";
import { seedSubmission } from "./kyc/review-fixtures";
import { openTestAccount, testCaller } from "./payments";

/**
 * A planted dataset for the compliance reports: customers whose deposits and payments each show
 * one pattern (or none), posted at chosen instants of a controlled clock. Every write goes through
 * the real ledger, payments and KYC services.
 *
 * From DAY (UTC), with D+n the n-th day after:
 * - sam, structuring: 9,000 (D 09:00), 9,500 (D 20:00), 8,500 (D+1 10:00) USD. CTR: D only (18,500, 2 deposits).
 * - cora, CTR: 6,000 + 5,000 on D+2 (one row, 11,000, 2 deposits); 4,000 (D+3 23:00) + 7,000 (D+4 01:00): no row.
 * - nora, normal: 500 (D 10:00) and 1,200 (D+1 11:00): nothing.
 * - rick, rapid in-and-out: 5,000 (D+5 08:00), then a 4,500 payment out (D+5 12:00) that completes.
 * - hana, high KYC risk: latest risk score 85; 6,000 (D+6) + 5,000 (D+7): 11,000 in the month.
 * - sid, screening hit: 2,000 (D+8 08:00), then a 100 payment to "Jong Un Kim" (D+8 09:00), held for review.
 */

export const COMPLIANCE_DAY = "2026-11-10";
export const COMPLIANCE_PERIOD = { from: "2026-11-09", to: "2026-11-20" };

export interface PlantedClock {
  set(iso: string): void;
}

export interface PlantedCustomer {
  caller: PaymentCaller;
  account: Account;
  journalIds: string[];
  paymentIds: string[];
}

export type PlantedDataset = Record<"sam" | "cora" | "nora" | "rick" | "hana" | "sid", PlantedCustomer>;

const at = (dayOffset: number, time: string) =>
  new Date(Date.parse(`${COMPLIANCE_DAY}T${time}:00.000Z`) + dayOffset * 86_400_000).toISOString();

export async function plantComplianceDataset(
  ctx: CoreContext,
  clock: PlantedClock,
  tag: string,
): Promise<PlantedDataset> {
  clock.set(at(-1, "08:00"));
  await listRails(ctx);
  const customer = async (name: string): Promise<PlantedCustomer> => {
    const caller = await testCaller(ctx, `${name}-${tag}@example.com`, name[0]!.toUpperCase() + name.slice(1));
    return { caller, account: await openTestAccount(ctx, caller, "Checking"), journalIds: [], paymentIds: [] };
  };
  const set: PlantedDataset = {
    sam: await customer("sam"),
    cora: await customer("cora"),
    nora: await customer("nora"),
    rick: await customer("rick"),
    hana: await customer("hana"),
    sid: await customer("sid"),
  };
  const cash = async (who: PlantedCustomer, amount: string, when: string) => {
    clock.set(when);
    const created = await deposit(ctx, who.caller.userId, { account_id: who.account.id, amount }, null);
    const id = (JSON.parse(created.body) as { data: { id: string } }).data.id;
    await setJournalStatus(ctx, who.caller.userId, id, "post", null);
    who.journalIds.push(id);
  };
  const pay = async (who: PlantedCustomer, amount: string, beneficiaryName: string, country: string, when: string) => {
    clock.set(when);
    const swift = await getRail(ctx, "swift");
    // A key whose first attempt succeeds (attempt outcomes are deterministic per payment id).
    let key = `${tag}-${who.caller.userId}-${amount}`;
    for (let i = 0; i < 10_000; i += 1) {
      const candidate = `${key}-${i}`;
      if (attemptOutcome(swift, paymentIdFor(who.caller.userId, candidate), 1).succeeded) {
        key = candidate;
        break;
      }
    }
    const created = await initiatePayment(
      ctx,
      who.caller,
      {
        userId: who.caller.userId,
        fromAccountId: who.account.id,
        amount,
        currency: "USD",
        forceRail: "SWIFT",
        beneficiary: { name: beneficiaryName, accountNumber: "0532013000", country },
      },
      key,
    );
    who.paymentIds.push(created.reply.payment.paymentId);
    return created.reply.payment;
  };

  await cash(set.sam, "9000.00", at(0, "09:00"));
  await cash(set.nora, "500.00", at(0, "10:00"));
  await cash(set.sam, "9500.00", at(0, "20:00"));
  await cash(set.sam, "8500.00", at(1, "10:00"));
  await cash(set.nora, "1200.00", at(1, "11:00"));
  await cash(set.cora, "6000.00", at(2, "09:00"));
  await cash(set.cora, "5000.00", at(2, "15:00"));
  await cash(set.cora, "4000.00", at(3, "23:00"));
  await cash(set.cora, "7000.00", at(4, "01:00"));

  await cash(set.rick, "5000.00", at(5, "08:00"));
  const out = await pay(set.rick, "4500.00", "Acme Supplies Ltd", "GB", at(5, "12:00"));
  let nowMs = Date.parse(at(5, "12:00"));
  for (let step = 0; step < 10; step += 1) {
    clock.set(new Date(nowMs).toISOString());
    const result = await advancePayment(ctx, out.paymentId);
    if (!result.nextDueAt) break;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }

  const submission = await seedSubmission(ctx, {
    userId: set.hana.caller.userId,
    name: "Hana Tester",
    email: set.hana.caller.user.email,
  });
  await changeSubmission(ctx, submission.id, (current) => ({
    next: { ...current, risk_score: 85 },
    entries: [
      { actor: SYSTEM_ACTOR, action: "risk_assessed", from: null, to: null, note: "Risk 85 (High)", event: null },
    ],
  }));
  await cash(set.hana, "6000.00", at(6, "09:00"));
  await cash(set.hana, "5000.00", at(7, "09:00"));

  await cash(set.sid, "2000.00", at(8, "08:00"));
  await pay(set.sid, "100.00", "Jong Un Kim", "CN", at(8, "09:00"));
  clock.set(at(11, "09:00"));
  return set;
}

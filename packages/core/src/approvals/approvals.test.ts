import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, dataItems } from "@fintech/testing/context";
import { currentBalance } from "../ledger/balances";
import { loadJournal } from "../ledger/journal-reads";
import { deposit, setJournalStatus } from "../ledger/service";
import { createCustomerAccount, type Account } from "../ledger/accounts";
import { CreateAccountInput } from "../ledger/model";
import { allowMoneyForTests } from "@fintech/testing/limits";
import { decideDeposit, depositDecisions, listDepositApprovals } from "./deposits";
import { APPROVAL_MESSAGES, needsSecondApprover, type Reviewer } from "./model";
import { readThresholds, thresholdsView, updateThreshold } from "./thresholds";

/**
 * Four eyes on deposits against DynamoDB Local: a deposit draft above the threshold is never
 * posted by its owner (nor by an administrator who made it or owns the account); it waits in the
 * administrators' queue until another administrator approves (posts) or rejects (voids) it, with
 * a reason kept beside the journal. Thresholds are data: seeded, then edited.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let account: Account;
const owner = "four-eyes-owner";
const ownerActor = { id: owner, name: "Owen Owner" };
const secondAdmin: Reviewer = { id: "admin-two", email: "two@example.com", name: "Second Admin" };
const ownerAsAdmin: Reviewer = { id: owner, email: "owner@example.com", name: "Owen Owner" };

const journalIdOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;
const draftDeposit = async (amount: string, key: string | null = null) =>
  journalIdOf(
    (
      await deposit(
        ctx,
        owner,
        { account_id: account.id, amount, description: `Deposit of ${amount}` },
        key,
        ownerActor,
      )
    ).body,
  );

beforeAll(async () => {
  ctx = await createTestContext();
  // The deposits here are above the KYC levels' limits too: those have tests of their own.
  await allowMoneyForTests(ctx, owner);
  account = (
    await createCustomerAccount(
      ctx,
      owner,
      CreateAccountInput.parse({ name: "Treasury", currency: "USD", type: "bank" }),
    )
  ).account;
});
afterAll(async () => ctx.dispose());

describe("the thresholds", () => {
  it("are the seeded defaults until an administrator sets one; amounts strictly above need a second person", async () => {
    const seeded = await readThresholds(ctx);
    expect(seeded.version).toBe(0);
    expect(seeded.table.deposit.USD).toBe(1_000_000);
    expect(seeded.table.payment.JPY).toBe(1_500_000);
    expect(needsSecondApprover(1_000_000, 1_000_000)).toBe(false);
    expect(needsSecondApprover(1_000_000, 1_000_001)).toBe(true);
    expect(thresholdsView(seeded).thresholds).toContainEqual({
      kind: "deposit",
      currency: "USD",
      amount: "10000.00",
      amount_minor: 1_000_000,
    });
  });

  it("refuse a bad edit with a 400 and change nothing", async () => {
    const before = await dataItems(ctx);
    for (const body of [
      { kind: "deposit", currency: "USD", amount: "0" },
      { kind: "deposit", currency: "USD", amount: "1.001" },
      { kind: "loan", currency: "USD", amount: "5" },
      { kind: "deposit", currency: "XXX", amount: "5" },
      { kind: "deposit", currency: "USD", amount: "5", extra: 1 },
      null,
    ]) {
      await expect(updateThreshold(ctx, secondAdmin, body)).rejects.toMatchObject({ status: 400 });
    }
    expect(await dataItems(ctx)).toEqual(before);
  });
});

describe("a deposit above the threshold", () => {
  it("cannot be posted by its owner (403 second_approver_required, nothing changed); one at the threshold can", async () => {
    const small = await draftDeposit("10000.00");
    await setJournalStatus(ctx, owner, small, "post", null, ownerActor);
    expect((await loadJournal(ctx, small))!.status).toBe("posted");

    const big = await draftDeposit("90000.00");
    const before = await dataItems(ctx);
    const refusal = setJournalStatus(ctx, owner, big, "post", "owner-post-1", ownerActor);
    await expect(refusal).rejects.toMatchObject({
      status: 403,
      code: "second_approver_required",
      message: APPROVAL_MESSAGES.depositNeedsSecondApprover(1_000_000, "USD"),
    });
    await expect(setJournalStatus(ctx, owner, big, "post", null, ownerActor)).rejects.toMatchObject({ status: 403 });
    expect(await dataItems(ctx)).toEqual(before);
    expect((await loadJournal(ctx, big))!.status).toBe("draft");
  });

  it("waits in the administrators' queue; neither its maker nor its owner may decide it; another administrator approves it, audited", async () => {
    const big = await draftDeposit("25000.00");
    const queued = (await listDepositApprovals(ctx, secondAdmin)).items.find((item) => item.journal_id === big);
    expect(queued).toMatchObject({
      amount: "25000.00",
      currency: "USD",
      threshold: "10000.00",
      owner_id: owner,
      created_by: ownerActor,
      account_id: account.id,
      can_decide: true,
      cannot_decide_reason: null,
    });
    expect((await listDepositApprovals(ctx, ownerAsAdmin)).items.find((item) => item.journal_id === big)).toMatchObject(
      { can_decide: false, cannot_decide_reason: APPROVAL_MESSAGES.ownRequest("deposit") },
    );
    // Drafts at or below the threshold are not in the queue.
    const small = await draftDeposit("9999.99");
    expect((await listDepositApprovals(ctx, secondAdmin)).items.map((item) => item.journal_id)).not.toContain(small);

    await expect(decideDeposit(ctx, big, ownerAsAdmin, { decision: "approve", reason: "mine" })).rejects.toMatchObject({
      status: 403,
      code: "second_approver_required",
    });
    await expect(decideDeposit(ctx, big, secondAdmin, { decision: "approve" })).rejects.toMatchObject({ status: 400 });
    await expect(
      decideDeposit(ctx, small, secondAdmin, { decision: "approve", reason: "small" }),
    ).rejects.toMatchObject({ status: 409, code: "deposit_not_awaiting_approval" });
    await expect(
      decideDeposit(ctx, "00000000-0000-4000-8000-000000000000", secondAdmin, { decision: "approve", reason: "x" }),
    ).rejects.toMatchObject({ status: 404, code: "deposit_not_found" });

    const balanceBefore = await currentBalance(ctx, account);
    const decided = await decideDeposit(ctx, big, secondAdmin, {
      decision: "approve",
      reason: "Wire confirmed by the bank",
    });
    expect(decided.decision).toMatchObject({
      decision: "approve",
      reason: "Wire confirmed by the bank",
      decided_by: { id: secondAdmin.id, email: secondAdmin.email },
    });
    expect(decided.transaction).toMatchObject({ id: big, status: "posted" });
    const journal = (await loadJournal(ctx, big))!;
    expect(journal.history.at(-1)).toMatchObject({
      operation: "post",
      by: { id: secondAdmin.id, name: secondAdmin.name },
    });
    expect((await currentBalance(ctx, account)).balance).toBe(balanceBefore.balance + 2_500_000);
    expect(await depositDecisions(ctx, big)).toEqual([decided.decision]);
    expect((await listDepositApprovals(ctx, secondAdmin)).items.map((item) => item.journal_id)).not.toContain(big);
    await expect(decideDeposit(ctx, big, secondAdmin, { decision: "approve", reason: "again" })).rejects.toMatchObject({
      status: 409,
      code: "deposit_not_awaiting_approval",
    });

    // Unposted by its owner, it is a draft above the threshold again: back in the queue, not postable by the owner.
    await setJournalStatus(ctx, owner, big, "unpost", null, ownerActor);
    expect((await listDepositApprovals(ctx, secondAdmin)).items.map((item) => item.journal_id)).toContain(big);
    await expect(setJournalStatus(ctx, owner, big, "post", null, ownerActor)).rejects.toMatchObject({
      code: "second_approver_required",
    });
  });

  it("is rejected by another administrator: the draft is voided, nothing is credited", async () => {
    const big = await draftDeposit("50000.00");
    const before = await currentBalance(ctx, account);
    await decideDeposit(ctx, big, secondAdmin, { decision: "reject", reason: "Source of funds not documented" });
    expect((await loadJournal(ctx, big))!.status).toBe("voided");
    const after = await currentBalance(ctx, account);
    expect(after.balance).toBe(before.balance);
    expect(after.pending_in).toBe(before.pending_in - 5_000_000);
    expect((await listDepositApprovals(ctx, secondAdmin)).items.map((item) => item.journal_id)).not.toContain(big);
  });

  it("follows the threshold in force: raised, the owner may post it; lowered, a smaller one waits", async () => {
    const medium = await draftDeposit("15000.00");
    await expect(setJournalStatus(ctx, owner, medium, "post", null, ownerActor)).rejects.toMatchObject({
      code: "second_approver_required",
    });
    await updateThreshold(ctx, secondAdmin, { kind: "deposit", currency: "USD", amount: "20000" });
    expect((await listDepositApprovals(ctx, secondAdmin)).items.map((item) => item.journal_id)).not.toContain(medium);
    await setJournalStatus(ctx, owner, medium, "post", null, ownerActor);
    await updateThreshold(ctx, secondAdmin, { kind: "deposit", currency: "USD", amount: "100" });
    const modest = await draftDeposit("100.01");
    await expect(setJournalStatus(ctx, owner, modest, "post", null, ownerActor)).rejects.toMatchObject({
      code: "second_approver_required",
    });
    expect((await readThresholds(ctx)).version).toBe(2);
    await updateThreshold(ctx, secondAdmin, { kind: "deposit", currency: "USD", amount: "10000.00" });
  });
});

import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { RegisterInput } from "../../auth/model";
import { register } from "../../auth/service";
import { startKyc } from "../start";
import { verifyIdentityNumber } from "../identity-number-steps";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { acceptDocumentUpload } from "../documents/upload";
import { verhoeffCheckDigit } from "../identity-numbers";
import { getSubmission } from "../submissions";
import { assessSubmission } from "./assess";
import { SEED_RULE_SET } from "./seed-rules";
import { dryRun, livePublishedRuleSet, publishDraft, rulesOverview, saveDraft } from "./rule-sets";
import { uploadWatchlist } from "./watchlist";

/**
 * The risk engine over a real table, fed by the real applicant steps: the seed is published once
 * on first use, every fact comes from what the steps stored (velocity items, identity-number
 * claims, image hashes, the profile, the watchlist), a publish on one instance is used by another
 * on its next evaluation, and a dry run writes nothing.
 */

type Ctx = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Ctx;
let other: Ctx;
let users = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  other = await createTestContext({ TABLE_NAME: ctx.db.table });
});
afterAll(async () => {
  other.db.raw.destroy();
  await ctx.dispose();
});

async function applicant(
  profile: { first: string; last: string },
  kycName: string,
  options: { ip?: string; email?: string; amount?: number; country?: string } = {},
) {
  users += 1;
  const session = await register(
    ctx,
    RegisterInput.parse({
      email: `risk-${users}@example.com`,
      password: "long enough pw",
      first_name: profile.first,
      last_name: profile.last,
    }),
  );
  const submission = await startKyc(
    ctx,
    session.user.id,
    {
      country: options.country ?? "IN",
      name: kycName,
      email: options.email ?? `applicant@domain${users}.example`,
      phone: "+919876543210",
      amount: options.amount ?? 50_000,
    },
    { ip: options.ip ?? `198.51.100.${users}` },
  );
  return { userId: session.user.id, submissionId: submission.id };
}

const current = async (submissionId: string) => (await getSubmission(ctx, submissionId))!;
const flagsOf = async (submissionId: string) => (await current(submissionId)).risk!.flags.map((flag) => flag.code);
const aadhaar = (payload: string) => payload + verhoeffCheckDigit(payload);

describe("risk assessment over the table", () => {
  it("publishes the seed as version 1 once, however many instances ask at the same time", async () => {
    const instances = await Promise.all(
      Array.from({ length: 4 }, () => createTestContext({ TABLE_NAME: ctx.db.table })),
    );
    const seen = await Promise.all([ctx, other, ...instances].map((instance) => livePublishedRuleSet(instance)));
    for (const instance of instances) instance.db.raw.destroy();
    expect(new Set(seen.map((ruleSet) => ruleSet.version))).toEqual(new Set([1]));
    expect(seen[0]!.name).toBe(SEED_RULE_SET.name);
    expect((await rulesOverview(ctx)).versions.map((version) => version.version)).toEqual([1]);
  });

  it("scores a clean start Low with the seed's version", async () => {
    const { submissionId } = await applicant({ first: "Asha", last: "Rao" }, "Asha Rao");
    const risk = (await current(submissionId)).risk!;
    expect(risk).toMatchObject({ risk_score: 0, level: "Low", verdict: "approve", flags: [], rule_set_version: 1 });
  });

  it("counts starts per IP in the 24 hours up to each start", async () => {
    const ip = "203.0.113.77";
    const starts = [];
    for (const name of ["Ravi Kumar", "Meera Nair", "Arjun Das"]) {
      const [first, last] = name.split(" ") as [string, string];
      starts.push(await applicant({ first, last }, name, { ip }));
    }
    expect(await flagsOf(starts[0]!.submissionId)).toEqual([]);
    expect(await flagsOf(starts[1]!.submissionId)).toEqual([]);
    expect(await flagsOf(starts[2]!.submissionId)).toEqual(["VELOCITY_IP"]);
    // Re-assessed later, the first start still counts only what came before it.
    expect((await assessSubmission(ctx, await current(starts[0]!.submissionId))).reasons).toEqual([]);
  });

  it("flags an identity number another user holds, and an image another user sent", async () => {
    const number = aadhaar("23456789012");
    const first = await applicant({ first: "Kiran", last: "Shah" }, "Kiran Shah");
    const second = await applicant({ first: "Kiran", last: "Shaw" }, "Kiran Shaw");
    await verifyIdentityNumber(ctx, first.userId, "aadhaar", { document_number: number });
    expect(await flagsOf(first.submissionId)).toEqual([]);
    await verifyIdentityNumber(ctx, second.userId, "aadhaar", { document_number: number });
    expect(await flagsOf(second.submissionId)).toEqual(["DUPLICATE_IDENTITY_NUMBER"]);

    const image = await sampleDocumentImage({ seed: 41 });
    await acceptDocumentUpload(ctx, first.userId, {
      documentType: "passport",
      bytes: image,
      fileName: "passport.png",
      declaredType: "image/png",
    });
    // Re-assessed after its upload, the first holder is flagged too: the number is shared now.
    expect(await flagsOf(first.submissionId)).toEqual(["DUPLICATE_IDENTITY_NUMBER"]);
    await acceptDocumentUpload(ctx, second.userId, {
      documentType: "passport",
      bytes: image,
      fileName: "passport.png",
      declaredType: "image/png",
    });
    const risk = (await current(second.submissionId)).risk!;
    expect(risk.flags.map((flag) => flag.code)).toEqual(["DUPLICATE_IDENTITY_NUMBER", "DUPLICATE_IMAGE"]);
    expect(risk).toMatchObject({ risk_score: 90, level: "High", priority: "high", verdict: "review" });
  });

  it("flags a KYC name unlike the profile's, and a watchlist hit (an exact sanctions hit recommends reject)", async () => {
    const mismatch = await applicant({ first: "Test", last: "User" }, "Ivan Petrov");
    expect(await flagsOf(mismatch.submissionId)).toEqual(["NAME_MISMATCH"]);

    await uploadWatchlist(
      ctx,
      { csv: "name,aliases,list\nIvan Petrov,Ivan Petroff,sanctions\nLeela Menon,,pep\n" },
      "admin@example.com",
    );
    const listed = await applicant({ first: "Ivan", last: "Petrov" }, "Petrov Ivan");
    expect((await current(listed.submissionId)).risk).toMatchObject({
      verdict: "reject",
      flags: [{ code: "WATCHLIST_HIT" }],
    });
    const pep = await applicant({ first: "Leela", last: "Menom" }, "Leela Menom");
    const risk = (await current(pep.submissionId)).risk!;
    expect(risk).toMatchObject({ verdict: "review", flags: [{ code: "WATCHLIST_HIT" }] });
    expect(risk.reasons[0]!.reason).toMatch(/^The name matches a pep watchlist entry \(similarity 0\.9\d\)$/);
  });

  it("scores country risk and amounts from the rule set's data", async () => {
    const { submissionId } = await applicant({ first: "Sara", last: "Khan" }, "Sara Khan", {
      country: "VN",
      amount: 10_000_000,
    });
    expect((await current(submissionId)).risk).toMatchObject({
      risk_score: 45,
      level: "Medium",
      priority: "high",
      verdict: "approve",
    });
  });
});

describe("publishing and dry runs", () => {
  const stricter = {
    ...SEED_RULE_SET,
    name: "Stricter amounts",
    rules: [
      {
        id: "any_amount",
        name: "Any amount",
        conditions: { all: [{ fact: "amount", operator: "greaterThan", value: 0 }] },
        event: { type: "risk", params: { points: 35, reason: "Amount {amount}" } },
      },
    ],
  };

  it("a dry run returns the assessment a rule set would give and writes nothing", async () => {
    const { submissionId } = await applicant({ first: "Nina", last: "Iyer" }, "Nina Iyer");
    const before = await ctx.db.doc.send(new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true }));
    const result = await dryRun(ctx, { submission_id: submissionId, rules: stricter });
    expect(result.rule_set).toEqual({ source: "body", version: null, name: "Stricter amounts" });
    expect(result.assessment).toMatchObject({
      risk_score: 35,
      level: "Medium",
      rule_set_version: 0,
      reasons: [{ rule: "any_amount", points: 35, reason: "Amount 50000" }],
    });
    expect(result.facts).toMatchObject({ country: "IN", amount: 50_000, name_mismatch: false, velocity_ip_24h: 1 });
    expect(result.current).toMatchObject({ risk_score: 0, rule_set_version: 1 });
    expect((await dryRun(ctx, { submission_id: submissionId, version: 1 })).assessment.risk_score).toBe(0);
    const after = await ctx.db.doc.send(new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true }));
    expect(after.Items).toEqual(before.Items);
    await expect(dryRun(ctx, { submission_id: "no-such-submission" })).rejects.toMatchObject({ status: 404 });
    await expect(dryRun(ctx, { submission_id: submissionId, version: 99 })).rejects.toMatchObject({
      status: 404,
      code: "rule_set_version_not_found",
    });
  });

  it("a publish on one instance is used by another on its next evaluation", async () => {
    const { submissionId } = await applicant({ first: "Omar", last: "Sheikh" }, "Omar Sheikh");
    const submission = await current(submissionId);
    expect((await assessSubmission(other, submission)).rule_set_version).toBe(1);
    const draft = await saveDraft(ctx, stricter, "admin@example.com");
    expect(draft).toMatchObject({ revision: 1, based_on_version: 1, updated_by: "admin@example.com" });
    // Saved, not published: evaluations still use version 1.
    expect((await assessSubmission(other, submission)).rule_set_version).toBe(1);
    const published = await publishDraft(ctx, "admin@example.com");
    expect(published).toMatchObject({ version: 2, name: "Stricter amounts", published_by: "admin@example.com" });
    const next = await assessSubmission(other, submission);
    expect(next).toMatchObject({ rule_set_version: 2, risk_score: 35 });
    const overview = await rulesOverview(other);
    expect(overview.draft).toBeNull();
    expect(overview.published?.version).toBe(2);
    expect(overview.versions.map((version) => [version.version, version.rules])).toEqual([
      [2, 1],
      [1, SEED_RULE_SET.rules.length],
    ]);
  });

  it("refuses a stale draft save, a publish without a draft, and a rule set the engine would not run", async () => {
    await saveDraft(ctx, stricter, "a@example.com");
    await expect(saveDraft(ctx, stricter, "b@example.com", 0)).rejects.toMatchObject({
      status: 409,
      code: "rule_set_draft_changed",
    });
    expect((await saveDraft(ctx, { ...stricter, name: "Edited" }, "b@example.com", 1)).revision).toBe(2);
    await expect(
      saveDraft(
        ctx,
        {
          ...stricter,
          rules: [{ ...stricter.rules[0]!, conditions: { all: [{ fact: "amount", operator: "near", value: 1 }] } }],
        },
        "a@example.com",
      ),
    ).rejects.toMatchObject({ status: 400, code: "invalid_rule_set" });
    expect((await rulesOverview(ctx)).draft).toMatchObject({ name: "Edited", revision: 2 });
    expect((await publishDraft(ctx, "a@example.com")).version).toBe(3);
    await expect(publishDraft(ctx, "a@example.com")).rejects.toMatchObject({ status: 409, code: "rule_set_no_draft" });
  });

  it("two publishes racing for the same draft give one version and one conflict", async () => {
    await saveDraft(ctx, stricter, "a@example.com");
    const results = await Promise.allSettled([
      publishDraft(ctx, "a@example.com"),
      publishDraft(other, "b@example.com"),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { status: 409 } });
    expect((await rulesOverview(ctx)).versions[0]!.version).toBe(4);
  });
});

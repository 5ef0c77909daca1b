import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createTestContext } from "@fintech/testing/context";
import { register } from "../auth/service";
import { queuedMail } from "../mail/outbox";
import type { CoreContext } from "../shared/context";
import {
  createEndpoint,
  deleteEndpoint,
  endpointsOf,
  getEndpoint,
  ownersWithEnabledEndpoints,
  recordAttemptOutcome,
  rotateEndpointSecret,
  signingSecrets,
  updateEndpoint,
} from "./endpoints";
import { FAILING_DISABLE_AFTER_MS, MAX_ENDPOINTS_PER_USER, PREVIOUS_SECRET_VALID_MS } from "./model";
import { signedHeaders } from "./signing";

/**
 * Endpoints as the dispatcher sees them, on DynamoDB Local with a controlled clock: the secrets
 * it signs with across rotations, the outcome of attempts (a 410, five days of failures, a
 * success), the owners index, and the per-user limit under concurrent creation.
 */

let ctx: CoreContext & { dispose(): Promise<void> };
let now = Date.parse("2026-11-29T10:00:00.000Z");
const HOUR = 3_600_000;
let owner: string;
let other: string;

const resolveHost = async () => [{ address: "93.184.216.34", family: 4 }];
const newUser = async (email: string) =>
  (
    await register(ctx, {
      email,
      password: "long enough pw",
      first_name: "Hook",
      last_name: "Owner",
      phone: null,
      date_of_birth: null,
    })
  ).user.id;
const input = { url: "https://hooks.example.com/fintech", event_types: ["payment.paymentCompleted" as const] };

beforeAll(async () => {
  ctx = await createTestContext({ APP_URL: "https://app.example.com" }, { clock: () => new Date(now) });
  ctx.resolveHost = resolveHost;
  owner = await newUser("hooks-owner@example.com");
  other = await newUser("hooks-other@example.com");
});
afterAll(async () => {
  await ctx.dispose();
});

describe("signing secrets across rotations", () => {
  it("signs with the current secret, and with the previous one for 24 h after a rotation", async () => {
    const created = await createEndpoint(ctx, owner, input);
    const id = created.endpoint.id;
    expect(await signingSecrets(ctx, id)).toEqual([created.secret]);

    const first = await rotateEndpointSecret(ctx, owner, id);
    expect(first.endpoint.secret_hint).toBe(first.secret.slice(-4));
    expect(first.endpoint.previous_secret_expires_at).toBe(new Date(now + PREVIOUS_SECRET_VALID_MS).toISOString());
    const overlap = await signingSecrets(ctx, id);
    expect(overlap).toEqual([first.secret, created.secret]);
    const headers = signedHeaders(overlap, "evt_1", new Date(), "{}");
    expect(new Webhook(first.secret).verify("{}", headers)).toEqual({});
    expect(new Webhook(created.secret).verify("{}", headers)).toEqual({});

    now += HOUR;
    const second = await rotateEndpointSecret(ctx, owner, id);
    expect(await signingSecrets(ctx, id)).toEqual([second.secret, first.secret]);

    now += PREVIOUS_SECRET_VALID_MS;
    expect(await signingSecrets(ctx, id)).toEqual([second.secret]);
  });

  it("is a 404 for another owner's rotation, and for an unknown endpoint", async () => {
    const created = await createEndpoint(ctx, owner, input);
    await expect(rotateEndpointSecret(ctx, other, created.endpoint.id)).rejects.toMatchObject({
      status: 404,
      code: "webhook_endpoint_not_found",
    });
    await expect(signingSecrets(ctx, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa")).rejects.toMatchObject({ status: 404 });
    expect(await signingSecrets(ctx, created.endpoint.id)).toEqual([created.secret]);
  });
});

describe("recordAttemptOutcome", () => {
  const mailsAbout = async (endpointId: string) =>
    (await queuedMail(ctx, 1000)).filter(
      (mail) => mail.kind === "webhook-endpoint-disabled" && mail.text?.includes(endpointId),
    );

  it("disables an endpoint whose receiver answers 410, and tells its owner", async () => {
    const { endpoint } = await createEndpoint(ctx, owner, input);
    expect(await recordAttemptOutcome(ctx, endpoint.id, { ok: false, gone: true, at: new Date(now) })).toEqual({
      disabled: true,
    });
    expect(await getEndpoint(ctx, owner, endpoint.id)).toMatchObject({
      status: "disabled",
      disabled_reason: "gone",
      disabled_at: new Date(now).toISOString(),
    });
    const [mail, ...more] = await mailsAbout(endpoint.id);
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({
      to: "hooks-owner@example.com",
      subject: expect.stringMatching(/webhook endpoint was disabled/),
    });
    expect(mail!.text).toMatch(/410 Gone/);
    expect(mail!.text).toContain("https://hooks.example.com/fintech");
  });

  it("disables an endpoint after five days of failures, with one mail; a success before that clears the streak", async () => {
    const { endpoint } = await createEndpoint(ctx, owner, input);
    const started = now;
    const fail = (at: number) => recordAttemptOutcome(ctx, endpoint.id, { ok: false, gone: false, at: new Date(at) });

    expect(await fail(started)).toEqual({ disabled: false });
    expect((await getEndpoint(ctx, owner, endpoint.id)).failing_since).toBe(new Date(started).toISOString());
    expect(await fail(started + 2 * 24 * HOUR)).toEqual({ disabled: false });
    expect((await getEndpoint(ctx, owner, endpoint.id)).failing_since).toBe(new Date(started).toISOString());

    expect(
      await recordAttemptOutcome(ctx, endpoint.id, { ok: true, gone: false, at: new Date(started + 3 * 24 * HOUR) }),
    ).toEqual({ disabled: false });
    expect((await getEndpoint(ctx, owner, endpoint.id)).failing_since).toBeNull();

    const restarted = started + 4 * 24 * HOUR;
    expect(await fail(restarted)).toEqual({ disabled: false });
    expect(await fail(restarted + FAILING_DISABLE_AFTER_MS - 1)).toEqual({ disabled: false });
    expect(await mailsAbout(endpoint.id)).toHaveLength(0);
    expect(await fail(restarted + FAILING_DISABLE_AFTER_MS)).toEqual({ disabled: true });
    expect(await getEndpoint(ctx, owner, endpoint.id)).toMatchObject({
      status: "disabled",
      disabled_reason: "failing",
      failing_since: new Date(restarted).toISOString(),
    });
    expect(await fail(restarted + FAILING_DISABLE_AFTER_MS + HOUR)).toEqual({ disabled: true });
    const mails = await mailsAbout(endpoint.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/failed for 5 days/);
    expect(mails[0]!.text).toContain(`https://app.example.com/developers/webhooks?endpoint=${endpoint.id}`);

    // Enabled again by its owner: a clean slate.
    expect(await updateEndpoint(ctx, owner, endpoint.id, { enabled: true })).toMatchObject({
      status: "enabled",
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });
  });

  it("answers disabled for a deleted endpoint, so the dispatcher stops", async () => {
    const { endpoint } = await createEndpoint(ctx, other, input);
    await deleteEndpoint(ctx, other, endpoint.id);
    expect(await recordAttemptOutcome(ctx, endpoint.id, { ok: false, gone: false, at: new Date(now) })).toEqual({
      disabled: true,
    });
  });
});

describe("the owners index", () => {
  it("lists the owners with an enabled endpoint, and drops one whose endpoints are all disabled", async () => {
    const fresh = await newUser("hooks-index@example.com");
    expect(await ownersWithEnabledEndpoints(ctx)).not.toContain(fresh);
    const { endpoint } = await createEndpoint(ctx, fresh, input);
    await createEndpoint(ctx, fresh, { ...input, enabled: false });
    expect(await ownersWithEnabledEndpoints(ctx)).toContain(fresh);
    expect((await endpointsOf(ctx, fresh)).map((stored) => [stored.owner_id, stored.status]).sort()).toEqual([
      [fresh, "disabled"],
      [fresh, "enabled"],
    ]);
    await updateEndpoint(ctx, fresh, endpoint.id, { enabled: false });
    expect(await ownersWithEnabledEndpoints(ctx)).not.toContain(fresh);
    expect((await ownersWithEnabledEndpoints(ctx)).filter((id) => id === owner)).toHaveLength(1);
  });
});

describe("the per-user limit", () => {
  it("holds under concurrent creation, and frees a place on delete", async () => {
    const user = await newUser("hooks-limit@example.com");
    const attempts = await Promise.allSettled(
      Array.from({ length: MAX_ENDPOINTS_PER_USER + 4 }, () => createEndpoint(ctx, user, input)),
    );
    const created = attempts.filter((attempt) => attempt.status === "fulfilled");
    const refused = attempts.filter((attempt) => attempt.status === "rejected");
    expect(created.length).toBeLessThanOrEqual(MAX_ENDPOINTS_PER_USER);
    for (const refusal of refused)
      expect((refusal as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: "webhook_endpoint_limit" });
    // Transaction conflicts under contention may refuse a few more; fill up to the limit.
    while ((await endpointsOf(ctx, user)).length < MAX_ENDPOINTS_PER_USER) await createEndpoint(ctx, user, input);
    await expect(createEndpoint(ctx, user, input)).rejects.toMatchObject({ code: "webhook_endpoint_limit" });
    const [first] = await endpointsOf(ctx, user);
    await deleteEndpoint(ctx, user, first!.id);
    await expect(createEndpoint(ctx, user, input)).resolves.toMatchObject({ replayed: false });
    expect(await endpointsOf(ctx, user)).toHaveLength(MAX_ENDPOINTS_PER_USER);
  });
});

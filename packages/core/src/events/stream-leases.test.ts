import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { isAppError, type AppError } from "../shared/errors";
import {
  claimStreamLease,
  openStreamCount,
  releaseStreamLease,
  renewStreamLease,
  STREAM_LEASE_RENEW_MS,
  STREAM_LEASE_TTL_MS,
  type StreamLease,
} from "./stream-leases";

/** Open-stream leases against DynamoDB Local, on a clock that moves only when the test moves it. */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
const startMs = Date.now();
let offsetMs = 0;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(startMs + offsetMs) });
});
afterAll(async () => ctx.dispose());

const LIMIT = 5;
let users = 0;
const newUser = () => `lease-user-${++users}`;

async function refusal(claim: Promise<unknown>): Promise<AppError> {
  const error = await claim.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!isAppError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("stream leases", () => {
  it("renews well inside the expiry, so a missed renewal or two does not free a live stream's slot", () => {
    expect(STREAM_LEASE_TTL_MS).toBeGreaterThanOrEqual(STREAM_LEASE_RENEW_MS * 3);
  });

  it("gives a user five slots; the sixth claim is a 429 whose Retry-After is the earliest expiry", async () => {
    const user = newUser();
    const leases: StreamLease[] = [];
    for (let i = 0; i < LIMIT; i++) leases.push(await claimStreamLease(ctx, user, LIMIT));
    expect(new Set(leases.map((lease) => lease.slot))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(await openStreamCount(ctx, user)).toBe(LIMIT);

    offsetMs += 30_000;
    const refused = await refusal(claimStreamLease(ctx, user, LIMIT));
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("too_many_streams");
    expect(refused.message).toContain("at most 5");
    // The first lease was taken 30 s ago: it expires in 60 s.
    expect(Number(refused.headers["Retry-After"])).toBe(Math.ceil((STREAM_LEASE_TTL_MS - 30_000) / 1000));

    // Another user is not counted with this one.
    await releaseStreamLease(ctx, await claimStreamLease(ctx, newUser(), LIMIT));

    await releaseStreamLease(ctx, leases[2]!);
    expect(await openStreamCount(ctx, user)).toBe(LIMIT - 1);
    const replacement = await claimStreamLease(ctx, user, LIMIT);
    expect(replacement.slot).toBe(leases[2]!.slot);
    for (const lease of [...leases, replacement]) await releaseStreamLease(ctx, lease);
    expect(await openStreamCount(ctx, user)).toBe(0);
  });

  it("lets a slot whose stream stopped renewing go once it expires; the late renewal then learns it lost it", async () => {
    const user = newUser();
    const leases: StreamLease[] = [];
    for (let i = 0; i < LIMIT; i++) leases.push(await claimStreamLease(ctx, user, LIMIT));
    offsetMs += STREAM_LEASE_RENEW_MS;
    // All but the first keep renewing.
    for (const lease of leases.slice(1)) expect(await renewStreamLease(ctx, lease)).toBe(true);
    offsetMs += STREAM_LEASE_TTL_MS - STREAM_LEASE_RENEW_MS + 1;
    const taken = await claimStreamLease(ctx, user, LIMIT);
    expect(taken.slot).toBe(leases[0]!.slot);
    expect(await renewStreamLease(ctx, leases[0]!)).toBe(false);
    // Releasing a lost lease leaves the new holder's slot alone.
    await releaseStreamLease(ctx, leases[0]!);
    expect(await renewStreamLease(ctx, taken)).toBe(true);
    for (const lease of [...leases.slice(1), taken]) await releaseStreamLease(ctx, lease);
  });

  it("never hands out more slots than the limit to claims racing each other", async () => {
    const user = newUser();
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => claimStreamLease(ctx, user, LIMIT)));
    const granted = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as AppError] : []));
    expect(granted).toHaveLength(LIMIT);
    expect(new Set(granted.map((lease) => lease.slot)).size).toBe(LIMIT);
    expect(
      refused.every((error) => isAppError(error) && error.status === 429 && Number(error.headers["Retry-After"]) >= 1),
    ).toBe(true);
    expect(await openStreamCount(ctx, user)).toBe(LIMIT);
    for (const lease of granted) await releaseStreamLease(ctx, lease);
  });
});

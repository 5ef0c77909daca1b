import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { decodeCursor } from "../events/cursor";
import { startKyc } from "./start";
import { verifyIdentityNumber } from "./identity-number-steps";
import {
  cursorBeforeSubmission,
  eventOf,
  kycFeedReader,
  kycFeedScope,
  kycFeedSource,
  presentKycEvent,
  type KycFeedEvent,
} from "./events";
import { APPLICANT_KYC_EVENT_TYPES } from "./model";
import { listHistory } from "./submissions";

/** The KYC outbox's read side: decoding history entries, replay from a verification's start, gap fill. */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext({ FEED_SETTLE_MS: "0" });
});
afterAll(async () => ctx.dispose());

const startBody = { country: "IN", name: "Asha Rao", email: "asha@feeds.example", phone: "+919876543210" };

describe("decoding", () => {
  it("turns an entry with an event into a stream event carrying the verification id; audit-only entries into none", () => {
    const base = {
      gsi2sk: "2026-01-15T10:00:00.000Z#s1#000000000001",
      committed_at: "2026-01-15T10:00:00.000Z",
      submission_id: "s1",
    };
    const actor = { id: "u1", name: "Asha", role: "applicant" as const };
    const started = eventOf({
      ...base,
      entry: {
        seq: 1,
        at: base.committed_at,
        actor,
        action: "started",
        from: null,
        to: "pending",
        note: null,
        event: { type: "verificationStarted", data: { country: "IN" } },
      },
    });
    expect(started).toEqual({
      type: "verificationStarted",
      verificationId: "s1",
      seq: 1,
      payload: { verificationId: "s1", country: "IN" },
    });
    const claimed = eventOf({
      ...base,
      entry: {
        seq: 1,
        at: base.committed_at,
        actor,
        action: "started",
        from: null,
        to: "pending",
        note: null,
        event: { type: "verificationStarted", data: { verificationId: "forged" } },
      },
    });
    expect(claimed?.payload.verificationId).toBe("s1");
    expect(
      eventOf({
        ...base,
        entry: {
          seq: 2,
          at: base.committed_at,
          actor,
          action: "note",
          from: null,
          to: null,
          note: "hello",
          event: null,
        },
      }),
    ).toBeNull();
  });
});

describe("what an applicant reads", () => {
  const risky = /risk|score|flag|severity|alert|rule|reason/i;

  it("leaves out risk updates and compliance alerts, and every field the schema does not document, from the applicant's own feed", async () => {
    const submission = await startKyc(ctx, "signal-user", startBody, { ip: null });
    await verifyIdentityNumber(ctx, "signal-user", "aadhaar", { document_number: "234123412346" });
    const history = await listHistory(ctx, submission.id);
    // The history keeps every signal for the audit trail and the reviewers.
    expect(history.some((entry) => entry.event?.type === "riskAssessmentUpdate")).toBe(true);
    const ahead = { ...ctx, clock: () => new Date(Date.now() + 60_000) };
    const cursor = decodeCursor(
      ctx.config.CURSOR_KEYS,
      kycFeedScope("signal-user"),
      cursorBeforeSubmission(ctx, submission),
    );
    const applicant = await kycFeedReader(ahead, "signal-user").read(cursor);
    const types = applicant.deliveries.map((delivery) => delivery.event.type);
    expect(types).toEqual(
      history
        .filter((entry) => entry.event && (APPLICANT_KYC_EVENT_TYPES as readonly string[]).includes(entry.event.type))
        .map((entry) => entry.event!.type),
    );
    expect(types).toEqual(expect.arrayContaining(["verificationStarted", "documentVerified"]));
    for (const delivery of applicant.deliveries) {
      const message = JSON.stringify(presentKycEvent(delivery.event, delivery.at, "applicant"));
      expect(message, message).not.toMatch(risky);
    }
    const reviewer = await kycFeedReader(ahead, "signal-user", "reviewer").read(cursor);
    expect(reviewer.deliveries.map((delivery) => delivery.event.type)).toContain("riskAssessmentUpdate");
  });

  it("cuts a completion down to its status for everyone, and a reviewer-only event to its id if one ever reaches an applicant", () => {
    const completed: KycFeedEvent = {
      type: "verificationCompleted",
      verificationId: "s1",
      seq: 9,
      payload: { verificationId: "s1", status: "REQUIRES_REVIEW", finalRiskScore: 80 },
    };
    expect(presentKycEvent(completed, "2026-01-15T10:00:00.000Z", "applicant").event).toEqual({
      verificationCompleted: { verificationId: "s1", status: "REQUIRES_REVIEW" },
    });
    expect(presentKycEvent(completed, "2026-01-15T10:00:00.000Z", "reviewer").event).toEqual({
      verificationCompleted: { verificationId: "s1", status: "REQUIRES_REVIEW" },
    });
    const alert: KycFeedEvent = {
      type: "complianceAlert",
      verificationId: "s1",
      seq: 10,
      payload: { alertType: "DUPLICATE_NUMBER", severity: "high", message: "The same Aadhaar is on another user" },
    };
    expect(presentKycEvent(alert, "2026-01-15T10:00:00.000Z", "applicant").event).toEqual({
      complianceAlert: { verificationId: "s1" },
    });
    expect(presentKycEvent(alert, "2026-01-15T10:00:00.000Z", "reviewer").event).toEqual({
      complianceAlert: {
        verificationId: "s1",
        alertType: "DUPLICATE_NUMBER",
        severity: "high",
        message: "The same Aadhaar is on another user",
      },
    });
  });
});

describe("reading the feed", () => {
  it("replays a verification from its start, in order, and only that user's", async () => {
    const submission = await startKyc(ctx, "feed-user", startBody, { ip: null });
    await startKyc(ctx, "someone-else", startBody, { ip: null });
    await verifyIdentityNumber(ctx, "feed-user", "pan", { document_number: "ABCPE1234F" });
    const cursor = decodeCursor(
      ctx.config.CURSOR_KEYS,
      kycFeedScope("feed-user"),
      cursorBeforeSubmission(ctx, submission),
    );
    // A reader whose clock is a minute ahead: everything committed is past its settle horizon.
    const reader = kycFeedReader({ ...ctx, clock: () => new Date(Date.now() + 60_000) }, "feed-user", "reviewer");
    const history = await listHistory(ctx, submission.id);
    const expected = history.filter((entry) => entry.event).map((entry) => entry.seq);
    const read = await reader.read(cursor);
    expect(read.deliveries.every((delivery) => delivery.event.verificationId === submission.id)).toBe(true);
    const delivered = read.deliveries.map((delivery) => delivery.event.seq);
    expect(delivered).toEqual(expected);
    expect(() =>
      decodeCursor(ctx.config.CURSOR_KEYS, kycFeedScope("someone-else"), cursorBeforeSubmission(ctx, submission)),
    ).toThrow();
  });

  it("fetches a stream's missing entries by sequence from the base table (gap fill)", async () => {
    const submission = await startKyc(ctx, "gap-user", startBody, { ip: null });
    await verifyIdentityNumber(ctx, "gap-user", "aadhaar", { document_number: "234123412346" });
    const source = kycFeedSource(ctx, "gap-user");
    const items = await source.range(submission.id, 2, 3);
    expect(items.map((item) => source.streamOf(item))).toEqual([
      { stream: submission.id, seq: 2 },
      { stream: submission.id, seq: 3 },
    ]);
  });
});

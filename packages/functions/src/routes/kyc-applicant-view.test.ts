import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { verhoeffCheckDigit } from "@fintech/core/kyc/identity-numbers";
import { APPLICANT_KYC_EVENT_TYPES, KYC_MESSAGES } from "@fintech/core/kyc/model";
import { findUserSubmission } from "@fintech/core/kyc/submissions";

/**
 * Applicants never see risk signals (docs/trust-and-safety.md#what-applicants-see): every reply an
 * applicant gets from every KYC route, and every event of their own feeds, is checked for a score,
 * a level, a flag, a severity, a rule or an alert, on a submission that really has them (its
 * Aadhaar is on another user, which the rules flag and score). The reviewer's routes show the same
 * submission's signals, so the test proves they exist and are kept back, not that they were never
 * computed.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;
let adminToken: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp({ FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100" });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "kyc-view-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "kyc-view-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.close()));
  await t.core.dispose();
});

/** Any key or text that would tell an applicant which check fired or how it scored them. */
const RISK_SIGNAL = /risk|score|flag|severity|rule|alert|verdict|priority|watchlist|duplicate|velocity|reason/i;

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

/** Every text meant to be read (with a space in it: ids, tickets and cursors are opaque and could spell anything). */
function wordsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(wordsOf);
  return typeof value === "string" && /\s/.test(value) ? [value] : [];
}

/** A reply as an applicant sees it: no key and no sentence that is a risk signal. */
function expectNoRiskSignal(label: string, body: unknown) {
  const text = JSON.stringify(body);
  expect(
    keysOf(body).filter((key) => RISK_SIGNAL.test(key)),
    `${label}: ${text}`,
  ).toEqual([]);
  expect(
    wordsOf(body).filter((words) => RISK_SIGNAL.test(words)),
    `${label}: ${text}`,
  ).toEqual([]);
}

let users = 0;
const newUser = (): Promise<Session> => t.signUp(`kyc-view-${++users}@example.com`);
const startBody = { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" };

function aadhaar(seed: number): string {
  const payload = `2${String(seed).padStart(10, "0")}`;
  return payload + verhoeffCheckDigit(payload);
}

async function upload(user: Session, seed: number) {
  const form = new FormData();
  form.append("document_type", "passport");
  form.append(
    "file",
    new Blob([new Uint8Array(await sampleDocumentImage({ seed }))], { type: "image/png" }),
    "passport.png",
  );
  const response = await t.app.request("/api/v1/kyc/upload", {
    method: "POST",
    body: form,
    headers: { Authorization: `Bearer ${user.token}` },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function subscribe(path: string, token: string) {
  const response = await t.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const stream = readSse(response.body!);
  streams.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

describe("what applicants see", () => {
  it("no applicant reply or feed event carries a score, level, flag, severity, rule or alert, though the reviewer's carry them", {
    timeout: 60_000,
  }, async () => {
    // Someone else claimed this Aadhaar first: the rules flag the second claim and raise its score.
    const shared = aadhaar(7_301_001);
    const earlier = await newUser();
    expect((await t.call("POST", "/api/v1/kyc/start", { token: earlier.token, body: startBody })).status).toBe(201);
    expect(
      (await t.call("POST", "/api/v1/kyc/verify/aadhaar", { token: earlier.token, body: { document_number: shared } }))
        .status,
    ).toBe(200);

    const me = await newUser();
    const own = await subscribe("/api/grpc/kyc/stream", me.token);
    const live = await subscribe("/api/grpc/live/stream?scopes=kyc", me.token);
    const replies: [string, { status: number; body: unknown }][] = [];
    const record = (label: string, reply: { status: number; body: unknown }, expected = 200) => {
      expect(reply.status, `${label}: ${JSON.stringify(reply.body)}`).toBe(expected);
      replies.push([label, reply]);
      return reply;
    };

    const started = record(
      "POST /start",
      await t.call("POST", "/api/v1/kyc/start", { token: me.token, body: startBody }),
      201,
    );
    const submissionId = (started.body as { data: { submission_id: string } }).data.submission_id;
    record("GET /status (started)", await t.call("GET", "/api/v1/kyc/status", { token: me.token }));
    record(
      "POST /verify/aadhaar",
      await t.call("POST", "/api/v1/kyc/verify/aadhaar", { token: me.token, body: { document_number: shared } }),
    );
    record(
      "POST /uploads/presign",
      await t.call("POST", "/api/v1/kyc/uploads/presign", {
        token: me.token,
        body: { document_type: "passport", content_type: "image/png" },
      }),
      201,
    );
    record("POST /upload", await upload(me, 7_302), 201);
    record(
      "command verifyDocument (passport)",
      await t.call("POST", "/api/grpc/kyc/command", {
        token: me.token,
        body: { command: { verifyDocument: { documentType: "passport" } } },
      }),
    );
    record(
      "command subscribeToVerification",
      await t.call("POST", "/api/grpc/kyc/command", {
        token: me.token,
        body: { command: { subscribeToVerification: {} } },
      }),
    );
    record(
      "POST /identity-numbers/pan/verify",
      await t.call("POST", "/api/v1/kyc/identity-numbers/pan/verify", {
        token: me.token,
        body: { document_number: "ABCPE1234F" },
      }),
    );
    record("GET /status (under review)", await t.call("GET", "/api/v1/kyc/status", { token: me.token }));
    record("GET /v1/kyc/profiles/{id}", await t.call("GET", `/v1/kyc/profiles/${submissionId}`, { token: me.token }));

    // The reviewer sees what the applicant does not: the duplicate flag and a score.
    const submission = (await findUserSubmission(t.core, me.user.id))!;
    expect(submission.status).toBe("under_review");
    expect(submission.risk?.flags.length).toBeGreaterThan(0);
    expect(submission.risk_score).toBeGreaterThan(0);
    const detail = await t.call("GET", `/api/v1/kyc/submissions/${submissionId}`, { token: adminToken });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).toMatch(/risk_score/);

    // Request Info, the applicant's answer, then approval: the decision reaches the applicant as a status only.
    expect(
      (
        await t.call("POST", `/api/v1/kyc/submissions/${submissionId}/request-info`, {
          token: adminToken,
          body: { message: "Please confirm your address" },
        })
      ).status,
    ).toBe(200);
    record("GET /status (info requested)", await t.call("GET", "/api/v1/kyc/status", { token: me.token }));
    record(
      "POST /resubmit",
      await t.call("POST", "/api/v1/kyc/resubmit", { token: me.token, body: { note: "Confirmed" } }),
    );
    const decided = await t.call("PUT", `/api/v1/kyc/submissions/${submissionId}`, {
      token: adminToken,
      body: { status: "verified", notes: "Documents match", acknowledge_risk: true },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    record("GET /status (verified)", await t.call("GET", "/api/v1/kyc/status", { token: me.token }));

    // A second applicant through the commands and the profile route.
    const other = await newUser();
    const profile = record(
      "POST /v1/kyc/profiles",
      await t.call("POST", "/v1/kyc/profiles", {
        token: other.token,
        body: {
          ...startBody,
          country: "US",
          phone: "+12025550143",
          documents: { passport: { documentNumber: "X1234567" } },
        },
      }),
      201,
    );
    expect((profile.body as { profile: Record<string, unknown> }).profile).toMatchObject({
      country: "US",
      status: "pending",
    });
    const image = await sampleDocumentImage({ seed: 7_303, format: "jpeg" });
    record(
      "command uploadDocument",
      await t.call("POST", "/api/grpc/kyc/command", {
        token: other.token,
        body: { command: { uploadDocument: { documentType: "passport", documentData: image.toString("base64") } } },
      }),
    );
    const third = await newUser();
    record(
      "command startVerification",
      await t.call("POST", "/api/grpc/kyc/command", {
        token: third.token,
        body: { command: { startVerification: startBody } },
      }),
    );
    record(
      "command verifyDocument (aadhaar)",
      await t.call("POST", "/api/grpc/kyc/command", {
        token: third.token,
        body: { command: { verifyDocument: { documentType: "aadhaar", documentNumber: shared } } },
      }),
    );

    for (const [label, reply] of replies) expectNoRiskSignal(label, reply.body);

    // The feeds: every event an applicant receives, up to the approval.
    await own.waitFor((message) => message.event === "verificationCompleted" && message.data.includes("VERIFIED"));
    await live.waitFor((message) => message.event === "kyc.verificationCompleted" && message.data.includes("VERIFIED"));
    for (const [name, stream, prefix] of [
      ["KYC stream", own, ""],
      ["live stream", live, "kyc."],
    ] as const) {
      const events = stream.messages.filter(
        (message) => message.event?.startsWith(prefix) && message.event !== "cursor",
      );
      expect(new Set(events.map((message) => message.event!.slice(prefix.length)))).toEqual(
        new Set(APPLICANT_KYC_EVENT_TYPES),
      );
      for (const message of events) expectNoRiskSignal(`${name} ${message.event}`, JSON.parse(message.data));
    }
    const completions = own.messages
      .filter((message) => message.event === "verificationCompleted")
      .map((message) => JSON.parse(message.data).event.verificationCompleted);
    expect(completions).toEqual([
      { verificationId: submissionId, status: "REQUIRES_REVIEW" },
      { verificationId: submissionId, status: "REQUIRES_REVIEW" },
      { verificationId: submissionId, status: "VERIFIED" },
    ]);
    expect(KYC_MESSAGES.completed).not.toMatch(RISK_SIGNAL);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { EVENT_ID_PATTERN } from "@fintech/core/events/event-id";
import { KYC_MESSAGES, type KycEventType } from "@fintech/core/kyc/model";
import { OpenAPIHono } from "@hono/zod-openapi";
import sharp from "sharp";
import { createApp } from "../app";
import type { AppEnv } from "../http/app-context";
import { errorReply, requestContext } from "../http/middleware";
import { COMMAND_MAX_BODY_BYTES, kycCommandRoutes } from "./kyc-commands";
import { KYC_FEED_EVENTS } from "./feeds";

/** The KYC stream and commands over HTTP: who may watch, event order, resume, commands. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;
let adminToken: string;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp({
    FEED_SETTLE_MS: "0",
    FEED_HEARTBEAT_MS: "200",
    FEED_POLL_MAX_MS: "100",
    FEED_RETRY_MS: "1500",
  });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "kyc-stream-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "kyc-stream-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

let users = 0;
const newUser = (): Promise<Session> => t.signUp(`kyc-stream-${++users}@example.com`);
const startBody = { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" };
const command = (body: unknown, token?: string) => t.call("POST", "/api/grpc/kyc/command", { token, body });

async function connect(path: string, auth: { token?: string; lastEventId?: string } = {}, app = t.app) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.lastEventId) headers["Last-Event-ID"] = auth.lastEventId;
  return app.request(path, { headers });
}

async function subscribe(path: string, auth: { token?: string; lastEventId?: string } = {}, app = t.app) {
  const response = await connect(path, auth, app);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const stream = readSse(response.body!);
  open.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

const kycEvents = (stream: SseStream) => stream.messages.filter((message) => message.event !== "cursor");
const types = (stream: SseStream) => kycEvents(stream).map((message) => message.event);

describe("health and who may watch", () => {
  it("answers health with a bearer token only", async () => {
    const user = await newUser();
    expect((await t.call("GET", "/api/grpc/kyc/health")).status).toBe(401);
    const reply = await t.call("GET", "/api/grpc/kyc/health", { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, service: "kyc-stream", database: { connected: true } });
  });

  it("refuses no token (401), another user's feed (403), bad queries and a forged Last-Event-ID (400); an admin may watch anyone", async () => {
    const me = await newUser();
    const other = await newUser();
    expect((await connect(`/api/grpc/kyc/stream?userId=${me.user.id}`)).status).toBe(401);
    expect((await connect(`/api/grpc/kyc/stream?userId=${other.user.id}`, { token: me.token })).status).toBe(403);
    expect((await connect(`/api/grpc/kyc/stream?includeRiskUpdates=maybe`, { token: me.token })).status).toBe(400);
    expect((await connect(`/api/grpc/kyc/stream?userId=${"u".repeat(65)}`, { token: me.token })).status).toBe(400);
    const forged = await connect(`/api/grpc/kyc/stream`, { token: me.token, lastEventId: "eyJwIjoiIn0.AAAA" });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "invalid_event_id" });

    const watching = await subscribe(`/api/grpc/kyc/stream?userId=${other.user.id}`, { token: adminToken });
    expect((await t.call("POST", "/api/v1/kyc/start", { token: other.token, body: startBody })).status).toBe(201);
    const started = await watching.waitFor((message) => message.event === "verificationStarted");
    expect(JSON.parse(started.data).event.verificationStarted).toMatchObject({ country: "IN" });
    // A reviewer's view of the feed carries the risk assessment the applicant's never does.
    const risk = JSON.parse((await watching.waitFor((message) => message.event === "riskAssessmentUpdate")).data);
    expect(risk.event.riskAssessmentUpdate).toMatchObject({
      riskScore: expect.any(Number),
      riskLevel: expect.stringMatching(/Low|Medium|High/),
      flags: expect.any(Array),
    });
    await watching.close();
  });
});

describe("events", () => {
  it("delivers verificationStarted and documentVerified in order, no risk signal, and resumes with Last-Event-ID", async () => {
    const me = await newUser();
    const stream = await subscribe(`/api/grpc/kyc/stream?userId=${me.user.id}`, { token: me.token });
    const start = await t.call("POST", "/api/v1/kyc/start", { token: me.token, body: startBody });
    const verificationId = start.body.data.submission_id as string;
    await stream.waitFor((message) => message.event === "verificationStarted");
    const verified = await t.call("POST", "/api/v1/kyc/verify/aadhaar", {
      token: me.token,
      body: { document_number: "234123412346", country: "IN" },
    });
    expect(verified.status).toBe(200);
    await stream.waitFor((message) => message.event === "documentVerified");

    // The applicant's own feed: what happened, never a risk update or a compliance alert.
    expect(types(stream)).toEqual(["verificationStarted", "documentVerified"]);
    const [first, document] = kycEvents(stream).map((message) => JSON.parse(message.data));
    expect(first).toEqual({
      event: { verificationStarted: { verificationId, country: "IN", countryName: "India" } },
      type: "verificationStarted",
      verificationId,
      at: expect.any(String),
      id: expect.stringMatching(EVENT_ID_PATTERN),
      created_at: first.at,
    });
    expect(document.event.documentVerified).toEqual({
      verificationId,
      documentType: "aadhaar",
      status: "VERIFIED",
      confidence: 1,
    });
    expect(kycEvents(stream).every((message) => message.id)).toBe(true);
    for (const message of kycEvents(stream))
      expect(
        () => KYC_FEED_EVENTS[message.event as KycEventType]!.schema.strict().parse(JSON.parse(message.data)),
        message.data,
      ).not.toThrow();

    // Resume after the first event: everything after it, once each, in order, also what came while away.
    const afterFirst = kycEvents(stream)[0]!.id!;
    const seen = kycEvents(stream).length;
    await stream.close();
    expect(
      (await t.call("POST", "/api/v1/kyc/verify/pan", { token: me.token, body: { document_number: "ABCPE1234F" } }))
        .status,
    ).toBe(200);
    const resumed = await subscribe(`/api/grpc/kyc/stream`, { token: me.token, lastEventId: afterFirst });
    const pan = await resumed.waitFor(
      (message) =>
        message.event === "documentVerified" && JSON.parse(message.data).event.documentVerified.documentType === "pan",
    );
    expect(pan.id).toBeTruthy();
    const replayed = kycEvents(resumed).map((message) => message.data);
    expect(replayed.slice(0, seen - 1)).toEqual(
      kycEvents(stream)
        .slice(1)
        .map((message) => message.data),
    );
    expect(new Set(replayed).size).toBe(replayed.length);
    expect(types(resumed)).not.toContain("verificationStarted");
    await resumed.close();
  });

  it("leaves risk updates out of a reviewer's view with includeRiskUpdates=false", async () => {
    const me = await newUser();
    const stream = await subscribe(`/api/grpc/kyc/stream?userId=${me.user.id}&includeRiskUpdates=false`, {
      token: adminToken,
    });
    await t.call("POST", "/api/v1/kyc/start", { token: me.token, body: startBody });
    await t.call("POST", "/api/v1/kyc/verify/pan", { token: me.token, body: { document_number: "ABCPE1234F" } });
    await stream.waitFor((message) => message.event === "documentVerified");
    // Compliance alerts depend on the published rules (they may fire on a start): left out here.
    expect(types(stream).filter((type) => type !== "complianceAlert")).toEqual([
      "verificationStarted",
      "documentVerified",
    ]);
    await stream.close();
  });

  it("ends cleanly, and a reconnect from the last id gets exactly what it missed", async () => {
    const me = await newUser();
    const shortLived = createApp({ ...t.core, config: { ...t.core.config, FEED_MAX_SECONDS: 1 } });
    const stream = await subscribe(`/api/grpc/kyc/stream`, { token: me.token }, shortLived);
    expect(stream.retry).toBe(1500);
    await stream.ended;
    expect(stream.comments.some((comment) => comment.startsWith("end of stream"))).toBe(true);
    const resumeFrom = stream.lastEventId()!;
    await t.call("POST", "/api/v1/kyc/start", { token: me.token, body: startBody });
    await t.call("POST", "/api/v1/kyc/verify/pan", { token: me.token, body: { document_number: "ABCPE1234F" } });
    const resumed = await subscribe(`/api/grpc/kyc/stream?lastEventId=${encodeURIComponent(resumeFrom)}`, {
      token: me.token,
    });
    await resumed.waitFor((message) => message.event === "documentVerified");
    expect(types(resumed)).toEqual(["verificationStarted", "documentVerified"]);
    await resumed.close();
  });
});

describe("commands", () => {
  it("startVerification, then subscribeToVerification replays the verification from its start through a ticket", async () => {
    const me = await newUser();
    const started = await command(
      { command: { startVerification: { userId: me.user.id, ...startBody, amount: 50_000 } } },
      me.token,
    );
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      command: "startVerification",
      result: {
        verificationId: expect.any(String),
        message: KYC_MESSAGES.started("India"),
        state: { status: "pending" },
      },
    });
    const verificationId = started.body.result.verificationId as string;

    const again = await command({ command: { startVerification: startBody } }, me.token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: "KYC command failed", code: "kyc_already_started" });
    expect(again.body.reason).toContain("already has a KYC submission");

    const subscribed = await command(
      { command: { subscribeToVerification: { userId: me.user.id, includeRiskUpdates: true } } },
      me.token,
    );
    expect(subscribed.status).toBe(200);
    const result = subscribed.body.result as { streamUrl: string; ticket: string; verificationId: string };
    expect(result.verificationId).toBe(verificationId);
    expect(result.streamUrl).toMatch(/^\/api\/grpc\/kyc\/stream\?userId=[^&]+&lastEventId=/);
    // EventSource style: no header, the ticket in the URL.
    const stream = await subscribe(`${result.streamUrl}&ticket=${encodeURIComponent(result.ticket)}`);
    await stream.waitFor((message) => message.event === "verificationStarted");
    expect(types(stream)).toEqual(["verificationStarted"]);
    expect(JSON.parse(kycEvents(stream)[0]!.data).verificationId).toBe(verificationId);
    await stream.close();
  });

  it("verifyDocument: Aadhaar and PAN as the REST steps, identity documents by their checks", async () => {
    const me = await newUser();
    await command({ command: { startVerification: startBody } }, me.token);
    const bad = await command(
      { command: { verifyDocument: { documentType: "aadhaar", documentNumber: "234123412347" } } },
      me.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      message: "KYC command failed",
      reason: KYC_MESSAGES.invalidAadhaar,
      code: "invalid_aadhaar",
    });
    const missing = await command({ command: { verifyDocument: { documentType: "pan" } } }, me.token);
    expect(missing.body).toMatchObject({ reason: KYC_MESSAGES.invalidPan });
    const good = await command(
      {
        command: { verifyDocument: { userId: me.user.id, documentType: "aadhaar", documentNumber: "2341 2341 2346" } },
      },
      me.token,
    );
    expect(good.body.result).toEqual({
      documentType: "aadhaar",
      status: "VERIFIED",
      valid: true,
      masked: "XXXX XXXX 2346",
      progress: 25,
      kycStatus: "pending",
    });
    const passport = await command({ command: { verifyDocument: { documentType: "passport" } } }, me.token);
    expect(passport.status).toBe(404);
    expect(passport.body.code).toBe("document_not_uploaded");
  });

  it("uploadDocument runs the upload's checks on base64 image data, bounded before decoding", async () => {
    const me = await newUser();
    await command({ command: { startVerification: startBody } }, me.token);
    const image = await sampleDocumentImage({ seed: 7_301, format: "jpeg" });
    const uploaded = await command(
      {
        command: {
          uploadDocument: {
            userId: me.user.id,
            documentType: "passport",
            documentData: image.toString("base64"),
            fileName: "passport.jpg",
          },
        },
      },
      me.token,
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.result).toMatchObject({
      documentType: "passport",
      status: "VERIFIED",
      document: { type: "passport", status: "verified" },
    });
    expect(JSON.stringify(uploaded.body)).not.toContain("object_key");
    const checked = await command({ command: { verifyDocument: { documentType: "passport" } } }, me.token);
    expect(checked.body.result).toMatchObject({ documentType: "passport", status: "VERIFIED", valid: true });

    const text = await command(
      {
        command: {
          uploadDocument: {
            documentType: "passport",
            documentData: Buffer.from("just some text").toString("base64"),
            fileName: "id.png",
          },
        },
      },
      me.token,
    );
    expect(text.body.reason).toBe(KYC_MESSAGES.wrongImageFormat);
    const notBase64 = await command(
      { command: { uploadDocument: { documentType: "passport", documentData: "%%% not base64 %%%" } } },
      me.token,
    );
    expect(notBase64.status).toBe(400);
    const tooBig = await command(
      { command: { uploadDocument: { documentType: "passport", documentData: "A".repeat(7_100_000) } } },
      me.token,
    );
    expect(tooBig.status).toBe(413);
  });

  it("takes pictures over the app's general 1 MB limit on its own route limit, and refuses past it with the spec's message", async () => {
    // The command routes alone, as app.ts mounts them once the general limit skips the command path.
    const routes = new OpenAPIHono<AppEnv>().use(requestContext(t.core)).route("/api/grpc/kyc", kycCommandRoutes);
    routes.onError(errorReply);
    const me = await newUser();
    const send = (body: string) =>
      routes.request("/api/grpc/kyc/command", {
        method: "POST",
        headers: { Authorization: `Bearer ${me.token}`, "Content-Type": "application/json" },
        body,
      });
    await command({ command: { startVerification: startBody } }, me.token);
    const noisy = await sharp({
      create: {
        width: 1400,
        height: 1000,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(1024 * 1024);
    const big = await send(
      JSON.stringify({
        command: {
          uploadDocument: { documentType: "passport", documentData: noisy.toString("base64"), fileName: "noisy.jpg" },
        },
      }),
    );
    expect(big.status).toBe(200);
    expect(((await big.json()) as { result: { status: string } }).result.status).toMatch(/^(VERIFIED|REJECTED)$/);
    const tooBig = await send(
      JSON.stringify({
        command: { uploadDocument: { documentType: "passport", documentData: "A".repeat(COMMAND_MAX_BODY_BYTES) } },
      }),
    );
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({
      message: "KYC command failed",
      reason: KYC_MESSAGES.fileTooLarge,
      code: "file_too_large",
    });
    const anonymous = await routes.request("/api/grpc/kyc/command", {
      method: "POST",
      body: "x".repeat(COMMAND_MAX_BODY_BYTES + 10),
    });
    expect(anonymous.status).toBe(401);
  });

  it("refuses unknown commands, malformed envelopes, other users and no token", async () => {
    const me = await newUser();
    const other = await newUser();
    expect((await command({ command: { startVerification: startBody } })).status).toBe(401);
    const unknown = await command({ command: { dropTables: {} } }, me.token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("unknown_command");
    for (const body of [
      {},
      { command: {} },
      { command: { startVerification: startBody, verifyDocument: {} } },
      { command: { startVerification: "go" } },
      [1],
      "nope",
    ]) {
      expect((await command(body, me.token)).status, JSON.stringify(body)).toBe(400);
    }
    const forOther = await command(
      { command: { startVerification: { ...startBody, userId: other.user.id } } },
      me.token,
    );
    expect(forOther.status).toBe(403);
    expect((await command({ command: { subscribeToVerification: { userId: other.user.id } } }, me.token)).status).toBe(
      403,
    );
    const byAdmin = await command({ command: { subscribeToVerification: { userId: other.user.id } } }, adminToken);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.result).toMatchObject({
      verificationId: null,
      streamUrl: `/api/grpc/kyc/stream?userId=${other.user.id}`,
    });
  });
});

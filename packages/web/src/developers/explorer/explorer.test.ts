import { afterEach, describe, expect, it, vi } from "vitest";
import { CATEGORY_NAMES, OpenApiDocument, buildCatalogue, type Endpoint } from "./catalogue";
import { COPY_CONFIRMATION_MS, createCopyFeedback } from "./copyFeedback";
import { explorerCurl } from "./curl";
import { initialDraft, prettyJson, requestBody, requestHeaders, requestTarget } from "./request";
import { DEFAULT_RESPONSE_MS, formatMs, typicalTimeLabel, typicalTimeOf } from "./responseTimes";
import { sendTryIt } from "./send";

/** A document of the contract's shape, trimmed to a few operations. */
const document = OpenApiDocument.parse({
  openapi: "3.1.0",
  info: { title: "Fintech Platform API", version: "1.0.0" },
  tags: CATEGORY_NAMES.map((name) => ({ name, description: `About ${name}` })),
  paths: {
    "/health": {
      get: {
        operationId: "getHealth",
        summary: "Liveness",
        description: "Public.",
        tags: ["System & Health"],
        "x-stability": "stable",
        "x-complexity": "low",
        security: [],
        responses: { 200: { description: "ok", content: { "application/json": { example: { status: "ok" } } } } },
      },
    },
    "/api/v1/ledger/accounts/{id}/balance": {
      get: {
        operationId: "getAccountBalance",
        summary: "Balance",
        description: "One account's balance.",
        tags: ["Ledger & Double-Entry"],
        "x-stability": "beta",
        "x-complexity": "low",
        security: [{ bearerAuth: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" }, example: "acc 1/2" }],
        responses: {
          200: { description: "ok", content: { "application/json": { example: { balance: "10.00" } } } },
          404: { description: "no" },
        },
      },
    },
    "/api/v1/ledger/transactions/transfer": {
      post: {
        operationId: "createTransfer",
        summary: "Transfer",
        description: "Moves money.",
        tags: ["Ledger & Double-Entry"],
        deprecated: true,
        "x-stability": "stable",
        "x-complexity": "medium",
        security: [{ bearerAuth: [] }],
        parameters: [{ $ref: "#/components/parameters/IdempotencyKey" }],
        requestBody: { content: { "application/json": { example: { amount: "5.00", description: "it's rent" } } } },
        responses: { 201: { description: "created", content: { "application/json": { example: { id: "t1" } } } } },
      },
    },
    "/api/grpc/ledger/stream": {
      get: {
        operationId: "streamLedgerEvents",
        summary: "Stream",
        description: "Events.",
        tags: ["gRPC Streaming APIs"],
        "x-stability": "stable",
        "x-complexity": "high",
        security: [{ bearerAuth: [] }],
        parameters: [
          { name: "userId", in: "query", required: false, schema: { type: "string" } },
          { name: "statusFilter", in: "query", schema: { type: "string", example: "posted" } },
        ],
        responses: {
          200: {
            description: "events",
            "x-sse-events": { cursor: {}, transactionCreated: {} },
            content: { "text/event-stream": { schema: { type: "string" }, example: "event: cursor\ndata: {}\n\n" } },
          },
        },
      },
    },
    "/api/v1/odd": { get: "not an operation" },
  },
  components: {
    parameters: {
      IdempotencyKey: {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        schema: { type: "string" },
        example: "k-1",
      },
    },
  },
});

const catalogue = buildCatalogue(document);
const endpoint = (key: string): Endpoint =>
  catalogue.flatMap((category) => category.endpoints).find((entry) => entry.key === key)!;
const context = { userId: "user-7", newIdempotencyKey: () => "fresh-key" };

describe("catalogue", () => {
  it("has the six categories in documented order, empty ones included, each endpoint in its tag's", () => {
    expect(catalogue.map((category) => category.name)).toEqual([...CATEGORY_NAMES]);
    const counts = Object.fromEntries(
      catalogue.map((category) => [category.name, category.endpoints.map((entry) => entry.key)]),
    );
    expect(counts["KYC & Compliance"]).toEqual([]);
    expect(counts["Ledger & Double-Entry"]).toEqual(["getAccountBalance", "createTransfer"]);
    expect(counts["System & Health"]).toEqual(["getHealth"]);
    expect(catalogue[2]).toMatchObject({ slug: "kyc-compliance", description: "About KYC & Compliance" });
  });

  it("reads method, badges, auth, parameters ($ref included), examples and stream events", () => {
    expect(endpoint("getHealth")).toMatchObject({
      method: "GET",
      stability: "stable",
      complexity: "low",
      authenticated: false,
      responseStatus: "200",
      responseExample: { status: "ok" },
      hasRequestBody: false,
    });
    expect(endpoint("getAccountBalance")).toMatchObject({
      stability: "beta",
      authenticated: true,
      parameters: [{ name: "id", in: "path", required: true, example: "acc 1/2" }],
    });
    const transfer = endpoint("createTransfer");
    expect(transfer).toMatchObject({
      method: "POST",
      stability: "deprecated",
      idempotent: true,
      requestExample: { amount: "5.00", description: "it's rent" },
      responseStatus: "201",
    });
    expect(transfer.parameters).toEqual([
      { name: "Idempotency-Key", in: "header", required: false, description: "", example: "k-1" },
    ]);
    const stream = endpoint("streamLedgerEvents");
    expect(stream).toMatchObject({
      streaming: true,
      sseEvents: ["cursor", "transactionCreated"],
      complexity: "high",
      responseExample: "event: cursor\ndata: {}\n\n",
    });
  });
});

describe("Try It drafts", () => {
  it("prefill path params from examples, userId from the session, a fresh Idempotency-Key, the body from its example", () => {
    expect(initialDraft(endpoint("getAccountBalance"), context)).toEqual({
      path: { id: "acc 1/2" },
      query: {},
      headers: {},
      body: "",
    });
    expect(initialDraft(endpoint("createTransfer"), context)).toMatchObject({
      headers: { "Idempotency-Key": "fresh-key" },
      body: prettyJson({ amount: "5.00", description: "it's rent" }),
    });
    // Optional filters start empty (their example is the placeholder); userId is the caller's.
    expect(initialDraft(endpoint("streamLedgerEvents"), context).query).toEqual({ userId: "user-7", statusFilter: "" });
  });

  it("build the target with encoded path values and only non-empty query values; refuse missing ones", () => {
    const balance = endpoint("getAccountBalance");
    expect(requestTarget(balance, initialDraft(balance, context))).toEqual({
      ok: true,
      value: "/api/v1/ledger/accounts/acc%201%2F2/balance",
    });
    expect(requestTarget(balance, { path: { id: " " }, query: {}, headers: {}, body: "" })).toEqual({
      ok: false,
      message: "Fill in id",
    });
    const stream = endpoint("streamLedgerEvents");
    expect(
      requestTarget(stream, {
        path: {},
        query: { userId: "u1", statusFilter: "posted,pending" },
        headers: {},
        body: "",
      }),
    ).toEqual({ ok: true, value: "/api/grpc/ledger/stream?userId=u1&statusFilter=posted%2Cpending" });
  });

  it("refuse a body that is not JSON before sending, and send compact JSON otherwise", () => {
    const transfer = endpoint("createTransfer");
    expect(requestBody(transfer, { path: {}, query: {}, headers: {}, body: "{ nope" })).toEqual({
      ok: false,
      message: "The request body is not valid JSON",
    });
    expect(requestBody(transfer, { path: {}, query: {}, headers: {}, body: '{\n "a": 1\n}' })).toEqual({
      ok: true,
      value: '{"a":1}',
    });
    expect(requestBody(endpoint("getHealth"), { path: {}, query: {}, headers: {}, body: "x" })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(
      requestHeaders({ path: {}, query: {}, headers: { "Idempotency-Key": " k ", "Last-Event-ID": "" }, body: "" }),
    ).toEqual({ "Idempotency-Key": "k" });
  });
});

describe("curl", () => {
  const base = "https://api.example.com";

  it("sends the bearer API key from the environment, never a secret, and nothing for public endpoints", () => {
    const health = endpoint("getHealth");
    expect(explorerCurl(health, initialDraft(health, context), base)).toBe(
      "curl -X GET 'https://api.example.com/health'",
    );
    const balance = endpoint("getAccountBalance");
    expect(explorerCurl(balance, initialDraft(balance, context), base)).toBe(
      "curl -X GET 'https://api.example.com/api/v1/ledger/accounts/acc%201%2F2/balance' \\\n  -H \"Authorization: Bearer $FINTECH_API_KEY\"",
    );
    // An unfilled path parameter stays a visible template.
    expect(explorerCurl(balance, { path: {}, query: {}, headers: {}, body: "" }, base)).toContain(
      "/api/v1/ledger/accounts/{id}/balance",
    );
  });

  it("quotes the body for the shell and carries the Idempotency-Key of writes", () => {
    const transfer = endpoint("createTransfer");
    expect(explorerCurl(transfer, initialDraft(transfer, context), base)).toBe(
      [
        "curl -X POST 'https://api.example.com/api/v1/ledger/transactions/transfer'",
        '-H "Authorization: Bearer $FINTECH_API_KEY"',
        "-H 'Idempotency-Key: fresh-key'",
        "-H 'Content-Type: application/json'",
        `-d '{\n  "amount": "5.00",\n  "description": "it'\\''s rent"\n}'`,
      ].join(" \\\n  "),
    );
  });

  it("asks for events unbuffered on streams", () => {
    const stream = endpoint("streamLedgerEvents");
    expect(explorerCurl(stream, initialDraft(stream, context), base)).toBe(
      "curl -N -X GET 'https://api.example.com/api/grpc/ledger/stream?userId=user-7' \\\n  -H \"Authorization: Bearer $FINTECH_API_KEY\" \\\n  -H 'Accept: text/event-stream'",
    );
  });
});

describe("typical response times", () => {
  const report = {
    window_hours: 24,
    since: "2026-01-01T00:00:00.000Z",
    routes: [{ method: "GET", path: "/health", requests: 1200, typical_ms: 3.36, p95_ms: 12.2 }],
    instances: 1,
    merged: true,
    as_of: "2026-01-01T12:00:00.000Z",
  };

  it("uses the measurement of the same method and path, else the labelled default", () => {
    const measured = typicalTimeOf({ method: "GET", path: "/health" }, report);
    expect(measured).toEqual({ measured: true, ms: 3.36, p95Ms: 12.2, requests: 1200 });
    expect(typicalTimeLabel(measured)).toBe("typical 3.4 ms (p95 12 ms, 1,200 replies)");
    const fallback = typicalTimeOf({ method: "POST", path: "/health" }, report);
    expect(fallback).toEqual({ measured: false, ms: DEFAULT_RESPONSE_MS });
    expect(typicalTimeLabel(fallback)).toBe("default 50 ms (no measurements yet)");
    expect(typicalTimeOf({ method: "GET", path: "/health" }, undefined).measured).toBe(false);
    expect([formatMs(0.84), formatMs(2), formatMs(1340)]).toEqual(["0.8 ms", "2 ms", "1.3 s"]);
  });
});

describe("server-sent events", () => {
  it("reads events split across chunks, with CRLF lines, skipping comments and retry-only blocks", async () => {
    const chunks = [
      'retry: 3000\n\n: hi\nid: 1\nevent: cursor\ndata: {"a":1}\n\nid: 2\nevent: transactionCr',
      "eated\r\ndata: x\r\ndata: y\r\n\r\nevent: plain\ndata: z\n\n",
    ];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const reply = await sendTryIt(
      { method: "GET", url: "/api/grpc/ledger/stream", headers: {}, streaming: true },
      {
        now: () => 0,
        fetch: async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
      },
    );
    expect(reply.events).toEqual([
      { id: "1", event: "cursor", data: '{"a":1}' },
      { id: "2", event: "transactionCreated", data: "x\ny" },
      { id: null, event: "plain", data: "z" },
    ]);
    expect(reply.truncated).toBe(false);
  });
});

describe("sendTryIt", () => {
  const clock = () => {
    let t = 100;
    return () => (t += 7);
  };

  it("gives status, pretty JSON, the useful headers and the measured time", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const reply = await sendTryIt(
      {
        method: "POST",
        url: "/api/x",
        headers: { Authorization: "Bearer t", "Idempotency-Key": "k" },
        body: '{"a":1}',
        streaming: false,
      },
      {
        now: clock(),
        fetch: async (url, init) => {
          seen.push({ url, init });
          return new Response('{"message":"nope","code":"conflict"}', {
            status: 409,
            statusText: "Conflict",
            headers: { "content-type": "application/json", "x-request-id": "r-1" },
          });
        },
      },
    );
    expect(seen[0]!.init.headers).toEqual({
      Accept: "application/json",
      Authorization: "Bearer t",
      "Idempotency-Key": "k",
      "Content-Type": "application/json",
    });
    expect(reply).toMatchObject({
      status: 409,
      statusText: "Conflict",
      durationMs: 7,
      kind: "json",
      headers: [["x-request-id", "r-1"]],
      truncated: false,
    });
    expect(reply.text).toBe('{\n  "message": "nope",\n  "code": "conflict"\n}');
  });

  it("reads only the first events of a stream that stays open, then cancels it", async () => {
    let cancelled = false;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new TextEncoder().encode(`id: ${sent}\nevent: tick\ndata: {"n":${sent}}\n\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reply = await sendTryIt(
      { method: "GET", url: "/api/grpc/ledger/stream", headers: {}, streaming: true },
      {
        now: clock(),
        maxEvents: 3,
        fetch: async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
      },
    );
    expect(reply.kind).toBe("events");
    expect(reply.events.map((event) => event.id)).toEqual(["1", "2", "3"]);
    expect(reply.truncated).toBe(true);
    expect(cancelled).toBe(true);
  });

  it("shows a body that is not JSON as text, and an empty one as empty", async () => {
    const csv = await sendTryIt(
      { method: "GET", url: "/x.csv", headers: {}, streaming: false },
      { now: clock(), fetch: async () => new Response("a,b\n1,2", { headers: { "content-type": "text/csv" } }) },
    );
    expect(csv).toMatchObject({ kind: "text", text: "a,b\n1,2" });
    const empty = await sendTryIt(
      { method: "DELETE", url: "/x", headers: {}, streaming: false },
      { now: clock(), fetch: async () => new Response(null, { status: 204 }) },
    );
    expect(empty).toMatchObject({ kind: "empty", status: 204 });
  });
});

describe("copy confirmation", () => {
  afterEach(() => vi.useRealTimers());

  it("shows the check for 2 s after the last copy", () => {
    vi.useFakeTimers();
    const states: boolean[] = [];
    const feedback = createCopyFeedback((copied) => states.push(copied));
    feedback.confirm();
    vi.advanceTimersByTime(COPY_CONFIRMATION_MS - 1);
    expect(states).toEqual([true]);
    feedback.confirm(); // a second copy restarts the 2 s
    vi.advanceTimersByTime(COPY_CONFIRMATION_MS - 1);
    expect(states).toEqual([true, true]);
    vi.advanceTimersByTime(1);
    expect(states).toEqual([true, true, false]);
    feedback.confirm();
    feedback.dispose(); // unmounted: no late update
    vi.advanceTimersByTime(COPY_CONFIRMATION_MS);
    expect(states).toEqual([true, true, false, true]);
  });
});

import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { verifyForTests } from "@fintech/testing/limits";
import { readSse, type SseStream } from "../../../infra/local/sse-client";
import { CreateApiKeyInput, LoginInput, ProfileUpdateInput, RegisterInput } from "@fintech/core/auth/model";
import {
  CreateAccountInput,
  DepositInput,
  LockInput,
  TestBalanceInput,
  ThresholdInput,
  TransactionFilters,
  TransferInput,
} from "@fintech/core/ledger/model";
import { PageQuery } from "@fintech/core/shared/pagination";
import { jsonSchemaOf, TAGS } from "./http/openapi";
import { openApiDocument } from "./openapi-document";

/**
 * The OpenAPI contract: every route of the app is documented and nothing else, the document is
 * valid OpenAPI 3.1, every operation carries what the explorer and the SDK need, every example
 * fits its schema, and real replies fit the documented schemas.
 */

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const document = openApiDocument() as Json;

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const streams: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp({ FEED_SETTLE_MS: "0", FEED_POLL_MAX_MS: "100" });
});
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.close()));
  await t.core.dispose();
});

function operations(): { key: string; path: string; method: string; operation: Json }[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      path,
      method,
      operation: item[method] as Json,
    })),
  );
}

/* ---------- JSON Schema validation against the document's own schemas ---------- */

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const DOCUMENT_ID = "urn:fintech:openapi";
/** "#/components/..." is relative to the document: point it at the document ajv knows. */
const anchored = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#/") ? `${DOCUMENT_ID}${value}` : value,
  );
ajv.addSchema({ $id: DOCUMENT_ID, components: anchored(document.components) } as Json);
const compiled = new Map<string, ValidateFunction>();
function validatorOf(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validator = compiled.get(key);
  if (!validator) {
    validator = ajv.compile(anchored(schema) as Json);
    compiled.set(key, validator);
  }
  return validator;
}
function problems(schema: Json, value: unknown): string | null {
  const validator = validatorOf(schema);
  return validator(value) ? null : ajv.errorsText(validator.errors, { separator: "; " });
}
const resolveParameter = (parameter: Json): Json =>
  parameter.$ref ? (document.components.parameters[(parameter.$ref as string).split("/").pop()!] as Json) : parameter;

describe("the OpenAPI document", () => {
  it("documents every route of the app, and only those", () => {
    const routes: { method: string; path: string }[] = t.app.routes;
    const served = new Set(
      routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${route.path.replace(/:([^/{}]+)/g, "{$1}")}`),
    );
    const documented = new Set(operations().map((entry) => entry.key));
    const missing = [...served].filter((route) => !documented.has(route)).sort();
    const extra = [...documented].filter((route) => !served.has(route)).sort();
    expect(missing, `routes of the app missing from the OpenAPI document: ${missing.join(", ")}`).toEqual([]);
    expect(extra, `documented operations the app does not serve: ${extra.join(", ")}`).toEqual([]);
    // A sanity floor: the app's route table really was read.
    expect(served.size).toBeGreaterThan(35);
  });

  it("is served at GET /api/openapi.json, publicly, as the same document", async () => {
    const reply = await t.call("GET", "/api/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("application/json");
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("passes the OpenAPI 3.1 validator", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("lists the six categories in order, with descriptions", () => {
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(Object.values(TAGS));
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
    expect(document.info.description).toMatch(/`low`.*one read.*`medium`.*write.*`high`.*stream/s);
  });

  it("gives every operation an id, words, one category, stability, complexity, security and error codes", () => {
    const ids = new Set<string>();
    for (const { key, operation } of operations()) {
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(operation.operationId), `${operation.operationId} is used twice`).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary, key).toMatch(/\w/);
      expect(operation.description, key).toMatch(/\w/);
      expect(operation.tags, key).toHaveLength(1);
      expect(Object.values(TAGS), key).toContain(operation.tags[0]);
      expect(["stable", "beta"], key).toContain(operation["x-stability"]);
      expect(["low", "medium", "high"], key).toContain(operation["x-complexity"]);
      expect(Array.isArray(operation.security), `${key} states its security`).toBe(true);
      const isPublic = operation.security.length === 0;
      if (!isPublic) expect(operation.security, key).toContainEqual({ bearerAuth: [] });
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        expect((response as Json).description, `${key} ${status}`).toMatch(/\w/);
        if (
          Number(status) >= 400 &&
          (response as Json).content?.["application/json"]?.schema?.$ref === "#/components/schemas/Error"
        ) {
          expect((response as Json).description, `${key} ${status} names its codes`).toMatch(/Codes: `[a-z_]+`/);
        }
        if (status === "429" || status === "503")
          expect((response as Json).headers?.["Retry-After"], `${key} ${status} Retry-After`).toBeDefined();
      }
      if (!isPublic) expect(operation.responses["401"], `${key} lists its 401`).toBeDefined();
    }
  });

  it("declares Idempotency-Key on the writes that honour it, and pagination on paged lists", () => {
    const byId = new Map(operations().map((entry) => [entry.operation.operationId as string, entry.operation]));
    const idempotent = [
      "createAccount",
      "createLedgerAccount",
      "createTransfer",
      "createDeposit",
      "createTestBalance",
      "postTransaction",
      "unpostTransaction",
      "runLedgerCommand",
    ];
    for (const id of idempotent) {
      expect(byId.get(id)?.parameters, id).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header" });
    for (const id of ["listTransactions", "listAccountTransactions"]) {
      const names = (byId.get(id)!.parameters as Json[]).map((parameter) => parameter.name);
      expect(names, id).toEqual(expect.arrayContaining(["limit", "offset", "cursor"]));
      const reply = document.components.schemas.JournalPageReply;
      expect(reply.properties.pagination.required).toEqual(
        expect.arrayContaining(["limit", "offset", "next_cursor", "has_more"]),
      );
    }
  });

  it("documents request bodies and queries from the zod schemas core parses them with", () => {
    const bodies = {
      register: RegisterInput,
      login: LoginInput,
      updateProfile: ProfileUpdateInput,
      createApiKey: CreateApiKeyInput,
      createAccount: CreateAccountInput,
      createLedgerAccount: CreateAccountInput,
      createTransfer: TransferInput,
      createDeposit: DepositInput,
      createTestBalance: TestBalanceInput,
      updateAccountThreshold: ThresholdInput,
      lockAccount: LockInput,
      unlockAccount: LockInput,
    };
    const byId = new Map(operations().map((entry) => [entry.operation.operationId as string, entry.operation]));
    for (const [operationId, schema] of Object.entries(bodies)) {
      const ref = byId.get(operationId)?.requestBody?.content?.["application/json"]?.schema?.$ref as string;
      expect(document.components.schemas[ref.split("/").pop()!], operationId).toEqual(jsonSchemaOf(schema, "input"));
    }
    const history = byId.get("listTransactions")!.parameters as Json[];
    for (const [name, property] of Object.entries({
      ...(jsonSchemaOf(TransactionFilters, "input").properties as Json),
      ...(jsonSchemaOf(PageQuery, "input").properties as Json),
    })) {
      expect(history.find((parameter) => parameter.name === name)?.schema, name).toEqual(property);
    }
  });

  it("describes the error shape and both ways to authenticate", () => {
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: ["message", "code"] });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.securitySchemes.bearerAuth.description).toContain("fpk_");
  });

  it("documents the ledger stream as server-sent events, each event with its data schema", () => {
    const stream = document.paths["/api/grpc/ledger/stream"].get;
    expect(stream.operationId).toBe("streamLedgerEvents");
    expect(stream.tags).toEqual([TAGS.streaming]);
    const ok = stream.responses["200"];
    expect(Object.keys(ok.content)).toEqual(["text/event-stream"]);
    expect(ok.content["text/event-stream"].schema).toEqual({ type: "string" });
    const events = Object.keys(ok["x-sse-events"]);
    expect(events).toEqual(
      expect.arrayContaining([
        "cursor",
        "balanceUpdate",
        "transactionCreated",
        "transactionStatusUpdate",
        "reconciliationResult",
        "lowBalanceAlert",
        "accountLocked",
        "accountUnlocked",
      ]),
    );
    for (const event of events) expect(ok.description).toContain(`\`${event}\``);
    expect((stream.parameters as Json[]).map(resolveParameter).map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(["userId", "lastEventId", "Last-Event-ID"]),
    );
  });

  it("has examples that are valid against their schemas", () => {
    let checked = 0;
    const failures: string[] = [];
    for (const { key, operation } of operations()) {
      const media: [string, Json][] = [];
      for (const [type, content] of Object.entries((operation.requestBody?.content ?? {}) as Json))
        media.push([`${key} request ${type}`, content]);
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        for (const [type, content] of Object.entries(((response as Json).content ?? {}) as Json))
          media.push([`${key} ${status} ${type}`, content]);
      }
      for (const parameter of ((operation.parameters ?? []) as Json[]).map(resolveParameter)) {
        if (parameter.example !== undefined) media.push([`${key} parameter ${parameter.name}`, parameter]);
      }
      for (const [where, content] of media) {
        expect(content.example, `${where} has an example`).toBeDefined();
        expect(content.schema, `${where} has a schema`).toBeDefined();
        const problem = problems(content.schema, content.example);
        if (problem) failures.push(`${where}: ${problem}`);
        checked += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe("real replies", () => {
  /** Checks a reply against the schema the document gives for its path, method and status. */
  function expectDocumented(path: string, method: string, reply: { status: number; headers: Headers; body: unknown }) {
    const operation = document.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const response = operation.responses[String(reply.status)];
    expect(response, `${method} ${path} documents status ${reply.status}`).toBeDefined();
    const schema = response.content?.["application/json"]?.schema;
    expect(schema, `${method} ${path} ${reply.status} has a JSON schema`).toBeDefined();
    expect(
      problems(schema, reply.body),
      `${method} ${path} ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`,
    ).toBeNull();
  }

  it("match their documented schemas: sign-up, API keys, accounts, money, history, reports, errors", async () => {
    const register = await t.call("POST", "/api/v1/auth/register", {
      body: {
        email: "contract@example.com",
        password: "long enough pw",
        first_name: "Ada",
        last_name: "Lovelace",
        phone: "+44 20 7946 0958",
        date_of_birth: "1990-12-10",
      },
      ip: "198.51.100.7",
    });
    expect(register.status).toBe(201);
    expectDocumented("/api/v1/auth/register", "post", register);
    const token = register.body.data.token as string;
    const as = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      t.call(method, path, { token, body, headers });
    // Deposits past an unverified user's limit below: the limits' own replies are checked at the end.
    await verifyForTests(t.core, register.body.data.user.id as string);

    expectDocumented(
      "/api/v1/auth/login",
      "post",
      await t.call("POST", "/api/v1/auth/login", {
        body: { email: "contract@example.com", password: "long enough pw" },
        ip: "198.51.100.7",
      }),
    );
    expectDocumented("/api/v1/auth/stream-ticket", "post", await as("POST", "/api/v1/auth/stream-ticket"));
    expectDocumented("/api/v1/users/profile", "get", await as("GET", "/api/v1/users/profile"));
    expectDocumented(
      "/api/v1/users/profile",
      "put",
      await as("PUT", "/api/v1/users/profile", { first_name: "Augusta" }),
    );

    const key = await as("POST", "/api/v1/api-keys", { name: "Contract test" });
    expect(key.status).toBe(201);
    expectDocumented("/api/v1/api-keys", "post", key);
    expectDocumented("/api/v1/api-keys", "get", await as("GET", "/api/v1/api-keys"));

    const everyday = await as(
      "POST",
      "/api/v1/accounts",
      { name: "Everyday", initial_balance: "500.00" },
      { "Idempotency-Key": "contract-open-1" },
    );
    expect(everyday.status).toBe(201);
    expectDocumented("/api/v1/accounts", "post", everyday);
    const savings = await as("POST", "/api/v1/ledger/accounts", { name: "Savings", currency: "USD" });
    expectDocumented("/api/v1/ledger/accounts", "post", savings);
    const from = everyday.body.data.id as string;
    const to = savings.body.data.id as string;
    expectDocumented("/api/v1/accounts", "get", await as("GET", "/api/v1/accounts"));
    expectDocumented("/api/v1/accounts/{id}", "get", await as("GET", `/api/v1/accounts/${from}`));
    expectDocumented("/api/v1/ledger/accounts", "get", await as("GET", "/api/v1/ledger/accounts"));
    expectDocumented("/api/v1/ledger/accounts/available", "get", await as("GET", "/api/v1/ledger/accounts/available"));
    expectDocumented(
      "/api/v1/ledger/accounts/{id}",
      "patch",
      await as("PATCH", `/api/v1/ledger/accounts/${from}`, { low_balance_threshold: "50" }),
    );

    const deposit = await as("POST", "/api/v1/ledger/transactions/deposit", { account_id: from, amount: "1000" });
    expectDocumented("/api/v1/ledger/transactions/deposit", "post", deposit);
    expectDocumented(
      "/api/v1/ledger/transactions/{id}/post",
      "post",
      await as("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`),
    );
    const transfer = await as(
      "POST",
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: from, to_account_id: to, amount: "125.50", description: "Contract" },
      { "Idempotency-Key": "contract-transfer-1" },
    );
    expect(transfer.status).toBe(201);
    expectDocumented("/api/v1/ledger/transactions/transfer", "post", transfer);
    const replay = await as(
      "POST",
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: from, to_account_id: to, amount: "125.50", description: "Contract" },
      { "Idempotency-Key": "contract-transfer-1" },
    );
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expectDocumented("/api/v1/ledger/transactions/transfer", "post", replay);
    expectDocumented(
      "/api/v1/ledger/transactions/test-balance",
      "post",
      await as("POST", "/api/v1/ledger/transactions/test-balance", { account_id: to, amount: "10" }),
    );
    expectDocumented(
      "/api/v1/ledger/transactions/{id}",
      "get",
      await as("GET", `/api/v1/ledger/transactions/${transfer.body.data.id}`),
    );
    expectDocumented(
      "/api/v1/ledger/transactions/history",
      "get",
      await as("GET", "/api/v1/ledger/transactions/history?limit=2"),
    );
    expectDocumented(
      "/api/v1/ledger/accounts/{id}/transactions",
      "get",
      await as("GET", `/api/v1/ledger/accounts/${from}/transactions`),
    );
    expectDocumented(
      "/api/v1/ledger/accounts/{id}/balance",
      "get",
      await as("GET", `/api/v1/ledger/accounts/${from}/balance`),
    );
    expectDocumented("/api/v1/ledger/trial-balance", "get", await as("GET", "/api/v1/ledger/trial-balance"));
    expectDocumented("/api/v1/ledger/limits", "get", await as("GET", "/api/v1/ledger/limits"));
    const overLimit = await as("POST", "/api/v1/ledger/transactions/deposit", { account_id: from, amount: "1000000" });
    expect(overLimit.body.code).toBe("limit_exceeded");
    expectDocumented("/api/v1/ledger/transactions/deposit", "post", overLimit);
    expectDocumented("/api/v1/ledger/integrity", "get", await as("GET", "/api/v1/ledger/integrity"));
    expectDocumented("/api/v1/ledger/analytics", "get", await as("GET", "/api/v1/ledger/analytics?days=2"));
    expectDocumented(
      "/api/grpc/ledger/command",
      "post",
      await as("POST", "/api/grpc/ledger/command", { command: { getBalance: { accountId: from } } }),
    );
    expectDocumented(
      "/api/grpc/ledger/command",
      "post",
      await as("POST", "/api/grpc/ledger/command", {
        command: { reconcileAccount: { accountId: from, expectedBalance: "1.00" } },
      }),
    );
    expectDocumented(
      "/api/grpc/ledger/command",
      "post",
      await as("POST", "/api/grpc/ledger/command", { command: { subscribeToAccount: { accountId: from } } }),
    );
    expectDocumented(
      "/api/grpc/ledger/command",
      "post",
      await as("POST", "/api/grpc/ledger/command", {
        command: { createTransaction: { type: "deposit", account_id: from, amount: "1" } },
      }),
    );

    const exported = await as("GET", "/api/v1/ledger/transactions/export");
    expect(exported.status).toBe(200);
    expect(Object.keys(document.paths["/api/v1/ledger/transactions/export"].get.responses["200"].content)).toEqual([
      "text/csv",
    ]);
    expect(exported.headers.get("content-type")).toContain("text/csv");

    expectDocumented("/health", "get", await t.call("GET", "/health"));
    expectDocumented("/api/health", "get", await as("GET", "/api/health"));
    expectDocumented("/api/v1/status/services", "get", await as("GET", "/api/v1/status/services"));
    expectDocumented("/api/v1/status/metrics", "get", await as("GET", "/api/v1/status/metrics"));
    expectDocumented(
      "/api/v1/developers/response-times",
      "get",
      await t.call("GET", "/api/v1/developers/response-times"),
    );
    expectDocumented(
      "/api/v1/developers/cors-check",
      "post",
      await t.call("POST", "/api/v1/developers/cors-check", { body: { origin: "https://app.example.com" } }),
    );
    expectDocumented("/api/v1/api-keys/{id}", "delete", await as("DELETE", `/api/v1/api-keys/${key.body.data.id}`));

    // Errors: the documented Error shape and status, codes included.
    const invalid = await as("POST", "/api/v1/ledger/transactions/transfer", { from_account_id: from });
    expect(invalid.status).toBe(400);
    expectDocumented("/api/v1/ledger/transactions/transfer", "post", invalid);
    expect(document.paths["/api/v1/ledger/transactions/transfer"].post.responses["400"].description).toContain(
      `\`${invalid.body.code}\``,
    );
    const unauthenticated = await t.call("GET", "/api/v1/accounts");
    expectDocumented("/api/v1/accounts", "get", unauthenticated);
    const unknown = await as("GET", "/api/v1/ledger/transactions/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expectDocumented("/api/v1/ledger/transactions/{id}", "get", unknown);
    expect(document.paths["/api/v1/ledger/transactions/{id}"].get.responses["404"].description).toContain(
      `\`${unknown.body.code}\``,
    );
    const failedPost = await as("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`);
    expect(failedPost.status).toBe(409);
    expectDocumented("/api/v1/ledger/transactions/{id}/post", "post", failedPost);
    const failedCommand = await as("POST", "/api/grpc/ledger/command", {
      command: { getBalance: { accountId: "no-such-account" } },
    });
    expect(failedCommand.status).toBe(404);
    expectDocumented("/api/grpc/ledger/command", "post", failedCommand);
  });

  it("stream text/event-stream whose events carry the documented data", async () => {
    const user = await t.signUp("contract-stream@example.com");
    const account = await t.call("POST", "/api/v1/accounts", { token: user.token, body: { name: "Streamed" } });
    const response = await t.app.request("/api/grpc/ledger/stream", {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = readSse(response.body!);
    streams.push(stream);
    const events = document.paths["/api/grpc/ledger/stream"].get.responses["200"]["x-sse-events"] as Record<
      string,
      Json
    >;
    const cursor = await stream.waitFor((message) => message.event === "cursor");
    expect(problems(events.cursor!, JSON.parse(cursor.data))).toBeNull();
    await t.call("POST", "/api/v1/ledger/transactions/deposit", {
      token: user.token,
      body: { account_id: account.body.data.id, amount: "5" },
    });
    for (const name of ["transactionCreated", "balanceUpdate"]) {
      const message = await stream.waitFor((candidate) => candidate.event === name);
      expect(problems(events[name]!, JSON.parse(message.data)), name).toBeNull();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyEmailForTests } from "@fintech/testing/auth";
import { createTestApp } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";

/**
 * Hostile input against every route of the app, as a signed-in user: oversized strings, wrong
 * types, deep nesting, huge arrays, non-JSON bodies, bad path and query parameters, bad
 * headers. The routes come from the Hono app itself, so a route added later is covered without
 * touching this file. Every reply must be below 500, and the table must hold exactly what it
 * held before (rate-limit counters and request metrics aside).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
/**
 * Signing out takes no input, so a probe signs out: POST /api/v1/auth/logout and
 * /api/v1/auth/sessions/end-others get a session of a user of their own (so the other routes keep
 * theirs), and only that user's item and session records may change.
 */
const SIGN_OUT_PATHS = ["/api/v1/auth/logout", "/api/v1/auth/sessions/end-others"];
let signOutUser: { id: string; token: string };

/**
 * Writes a probe may legitimately cause: an API key's only field is a name of 1-100 characters
 * of any kind, so the probes' "1e400" is a valid name and creates a key (its refusals are
 * asserted in api-keys.test.ts). Only such key items are tolerated, nothing else.
 */
const VALID_BY_CONSTRUCTION = (item: Record<string, unknown>) =>
  (item.entity === "api_key" && typeof item.name === "string" && item.name.length <= 100) ||
  (item.entity === "user" && item.id === signOutUser.id) ||
  (item.entity === "session" && item.user_id === signOutUser.id);

async function dataSnapshot(): Promise<string[]> {
  const items = await dataItems(t.core, (item) => !VALID_BY_CONSTRUCTION(item));
  return items.map((item) => JSON.stringify(item, Object.keys(item).sort())).sort();
}

const LONG = "x".repeat(3000);
/** Over DynamoDB's 2,048-byte key limit once it is part of a key. */
const LONG_ID = "a".repeat(2100);
const deepJson = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const deepObject = (levels: number): unknown => (levels === 0 ? {} : { nested: deepObject(levels - 1) });

/** Field names the API's bodies use; a value of the wrong kind is put in every one at once. */
const FIELDS = [
  "email",
  "password",
  "first_name",
  "last_name",
  "phone",
  "date_of_birth",
  "role",
  "name",
  "type",
  "currency",
  "description",
  "account_number",
  "initial_balance",
  "low_balance_threshold",
  "account_id",
  "from_account_id",
  "to_account_id",
  "amount",
  "status",
  "id",
  "cursor",
  "limit",
];

const WRONG_VALUES: [string, unknown][] = [
  ["3,000-character strings", LONG],
  ["numbers", 1e308],
  ["negative numbers", -1],
  ["arrays", [1, "2", null]],
  ["objects", { $ne: null }],
  ["nulls", null],
  ["booleans", true],
  ["nested objects", deepObject(20)],
  ["huge arrays", Array.from({ length: 20_000 }, (_, i) => i)],
  ["numeric strings out of range", "1e400"],
];

interface Probe {
  label: string;
  body?: string;
  query?: string;
  headers?: Record<string, string>;
  pathValue?: string;
}

const BODY_PROBES: Probe[] = [
  { label: "an empty body", body: "" },
  { label: "a body that is not JSON", body: "email=a&password=b" },
  { label: "truncated JSON", body: '{"email": "a@example.com", "pass' },
  { label: "JSON null", body: "null" },
  { label: "a JSON string", body: JSON.stringify(LONG) },
  { label: "a JSON number", body: "12345678901234567890" },
  { label: "a JSON array", body: "[]" },
  { label: "JSON nested 10,000 levels", body: deepJson(10_000) },
  { label: "JSON nested 200,000 levels", body: deepJson(200_000) },
  { label: "a huge array", body: JSON.stringify(Array.from({ length: 100_000 }, () => 0)) },
  { label: "a body over the size limit", body: JSON.stringify({ email: "x".repeat(1_100_000) }) },
  {
    label: "a __proto__ key",
    body: '{"__proto__": {"role": "admin"}, "constructor": {"prototype": {"role": "admin"}}}',
  },
  { label: "invalid UTF-8", body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString("latin1") },
  ...WRONG_VALUES.map(([label, value]) => ({
    label: `${label} in every field`,
    body: JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, value]))),
  })),
];

const QUERY_PROBES: Probe[] = [
  {
    label: "bad query parameters",
    query:
      "limit=abc&offset=-1&cursor=%%%&as_of=not-a-date&days=1e309&window=-5&status=%00&from=yesterday&to=[]&q=" +
      "q".repeat(3000),
  },
  {
    label: "repeated and empty query parameters",
    query: "limit=1&limit=2&offset=&cursor=&as_of=&days=&window=&account_id=",
  },
  {
    label: "oversized query parameters",
    query: `limit=${"9".repeat(400)}&offset=${"9".repeat(400)}&cursor=${LONG}&as_of=${LONG}&days=${LONG}&window=${LONG}&account_id=${LONG_ID}`,
  },
  {
    label: "a crafted cursor",
    query: `cursor=${Buffer.from(JSON.stringify({ pk: LONG_ID, sk: { S: 1 } })).toString("base64url")}`,
  },
];

const PATH_VALUES: Probe[] = [
  { label: "an id over 2,048 bytes", pathValue: LONG_ID },
  { label: "an id of multi-byte characters", pathValue: encodeURIComponent("€".repeat(800)) },
  { label: "an id with control characters and separators", pathValue: encodeURIComponent("\u0000#ACCT#../..\n") },
  { label: "an unknown id", pathValue: "00000000-0000-4000-8000-000000000000" },
];

const HEADER_PROBES: Probe[] = [
  { label: "an oversized Idempotency-Key", headers: { "Idempotency-Key": LONG } },
  { label: "a non-ASCII Idempotency-Key", headers: { "Idempotency-Key": encodeURIComponent("ключ") + "\u00e9" } },
  {
    label: "an oversized X-Request-Id and X-Forwarded-For",
    headers: { "X-Request-Id": LONG, "X-Forwarded-For": `${LONG}, ${LONG}` },
  },
  { label: "a wrong Content-Type", headers: { "Content-Type": "text/plain; charset=utf-16" } },
];

interface RouteUnderTest {
  method: string;
  path: string;
}

/** Every method and path the app answers, from its own route table (middleware entries aside). */
function appRoutes(): RouteUnderTest[] {
  const seen = new Map<string, RouteUnderTest>();
  for (const route of t.app.routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  return [...seen.values()];
}

const hasBody = (method: string) => method !== "GET" && method !== "HEAD";
const fillPath = (path: string, value: string) => path.replace(/:[A-Za-z_]+/g, value);

interface Outcome {
  request: string;
  status: number;
  body: string;
}

async function send(route: RouteUnderTest, probe: Probe, realId: string): Promise<Outcome> {
  const path = fillPath(route.path, probe.pathValue ?? realId) + (probe.query ? `?${probe.query}` : "");
  const bearer = SIGN_OUT_PATHS.includes(route.path) ? signOutUser.token : token;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${bearer}`,
    "Content-Type": "application/json",
    ...probe.headers,
  };
  const withBody = hasBody(route.method);
  const body = withBody
    ? (probe.body ?? JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, LONG]))))
    : undefined;
  const response = await t.app.request(path, { method: route.method, headers, body });
  const text = await response.text();
  return {
    request: `${route.method} ${route.path} with ${probe.label}`,
    status: response.status,
    body: text.slice(0, 200),
  };
}

/** Runs the calls with a few in flight at once: fast, without flooding DynamoDB Local. */
async function inBatches<T>(tasks: (() => Promise<T>)[], width = 6): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width)
    results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  return results;
}

beforeAll(async () => {
  // Streams end after a second, so a probe that opens one gets its whole (short) reply.
  t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: "100000",
    AUTH_RATE_LIMIT_PER_EMAIL: "100000",
    PAYMENT_RATE_LIMIT_PER_MINUTE: "100000",
    FEED_MAX_SECONDS: "1",
  });
  const registered = await t.call("POST", "/api/v1/auth/register", {
    body: { email: "fuzz@example.com", password: "a long enough password", first_name: "Fuzz", last_name: "Er" },
  });
  token = registered.body.data.token;
  // Verified, so asking for a new verification link (which takes no input) has nothing to send.
  await verifyEmailForTests(t.core, registered.body.data.user.id);
  const signingOut = await t.call("POST", "/api/v1/auth/register", {
    body: {
      email: "fuzz-sign-out@example.com",
      password: "a long enough password",
      first_name: "Fuzz",
      last_name: "Out",
    },
  });
  signOutUser = { id: signingOut.body.data.user.id, token: signingOut.body.data.token };
  // Reference data written on first read (the payment rails' seed) is in place before any snapshot.
  await t.call("GET", "/api/v1/rails", { token });
});
afterAll(async () => t.core.dispose());

describe("every route under hostile input", () => {
  it("covers the app's routes, including the ones added after this test was written", () => {
    const routes = appRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes).toContain("POST /api/v1/auth/login");
    expect(routes).toContain("PUT /api/v1/users/profile");
    expect(routes.length).toBeGreaterThan(15);
  });

  it("never answers 5xx and never writes", async () => {
    const created = await t.call("POST", "/api/v1/accounts", {
      token,
      body: { name: "Fuzz target", type: "bank", currency: "USD" },
    });
    const realId =
      typeof created.body?.data?.id === "string" ? created.body.data.id : "00000000-0000-4000-8000-000000000000";
    const before = await dataSnapshot();

    const tasks: (() => Promise<Outcome>)[] = [];
    for (const route of appRoutes()) {
      const probes = [
        ...(hasBody(route.method) ? BODY_PROBES : []),
        ...QUERY_PROBES,
        ...HEADER_PROBES,
        ...(route.path.includes(":") ? PATH_VALUES : []),
      ];
      for (const probe of probes) tasks.push(() => send(route, probe, realId));
    }
    const outcomes = await inBatches(tasks);

    const failures = outcomes
      .filter((outcome) => outcome.status >= 500)
      .map((outcome) => `${outcome.request}: ${outcome.status} ${outcome.body}`);
    expect(failures).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(300);
    expect(await dataSnapshot()).toEqual(before);
    // The ceiling leaves room for a machine shared with other test runs.
  }, 180_000);
});

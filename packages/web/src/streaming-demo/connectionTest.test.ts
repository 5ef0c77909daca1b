import { describe, expect, it } from "vitest";
import { CONNECTION_TEST_MESSAGES, corsVerdict, runConnectionTest, type ConnectionTestDeps } from "./connectionTest";

type Answer = { status: number; body: unknown } | Error;

/** A fetch that answers per path and records what was asked. */
function fakeFetch(answers: Record<string, Answer>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const answer = answers[new URL(url, "http://page.test").pathname];
    if (!answer) throw new Error(`unexpected ${url}`);
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch, calls };
}

const clock = () => {
  let t = 0;
  return () => (t += 7);
};

const cors = {
  origin: "http://page.test",
  method: "POST",
  request_headers: ["Content-Type", "Authorization"],
  status: 204,
  allow_origin: "http://page.test",
  allow_methods: "GET,POST",
  allow_headers: "Content-Type,Authorization",
  max_age_seconds: 600,
};

const deps = (fetch: ConnectionTestDeps["fetch"], token: string | null = null): ConnectionTestDeps => ({
  fetch,
  now: clock(),
  baseUrl: "",
  pageOrigin: "http://page.test",
  token,
});

describe("the Connection Test", () => {
  it("times a real health request, then asks the API what its preflight answers for this origin", async () => {
    const { fetch, calls } = fakeFetch({
      "/health": { status: 200, body: { status: "ok" } },
      "/api/health": { status: 200, body: { status: "ok" } },
      "/api/v1/developers/cors-check": { status: 200, body: cors },
    });
    const result = await runConnectionTest(deps(fetch, "token-1"));
    expect(result.ok).toBe(true);
    expect(result.health).toMatchObject({ status: 200, durationMs: 7 });
    expect(result.cors).toEqual({
      origin: "http://page.test",
      status: 204,
      allowOrigin: "http://page.test",
      allowMethods: "GET,POST",
      allowHeaders: "Content-Type,Authorization",
    });
    expect(calls.map((call) => call.url)).toEqual(["/health", "/api/health", "/api/v1/developers/cors-check"]);
    expect((calls[1]!.init.headers as Record<string, string>).Authorization).toBe("Bearer token-1");
    expect(JSON.parse(calls[2]!.init.body as string)).toEqual({
      origin: "http://page.test",
      method: "POST",
      headers: ["Content-Type", "Authorization"],
    });
    expect(result.lines.map((line) => line.text)).toContain("Access-Control-Allow-Origin: http://page.test");
  });

  it("signed out, skips the signed-in health route; a refused origin is shown as (none), not as a failure", async () => {
    const { fetch, calls } = fakeFetch({
      "/health": { status: 200, body: { status: "ok" } },
      "/api/v1/developers/cors-check": { status: 200, body: { ...cors, allow_origin: null } },
    });
    const result = await runConnectionTest(deps(fetch));
    expect(result.ok).toBe(true);
    expect(calls).toHaveLength(2);
    expect(result.lines.map((line) => line.text)).toContain("Access-Control-Allow-Origin: (none)");
  });

  it("a failed health check or an unreachable API fails the test and says why in the log", async () => {
    const down = fakeFetch({
      "/health": { status: 503, body: { status: "error" } },
      "/api/v1/developers/cors-check": new TypeError("Failed to fetch"),
    });
    const result = await runConnectionTest(deps(down.fetch));
    expect(result.ok).toBe(false);
    expect(result.lines.filter((line) => line.level === "error").map((line) => line.text)).toEqual([
      "HTTP failure: 503 (status error)",
      "CORS preflight failure: Failed to fetch",
    ]);
    const thrown = fakeFetch({ "/health": "boom" as unknown as Error });
    const unknown = await runConnectionTest(
      deps(async (url, init) =>
        thrown.fetch(url, init).then(() => {
          throw "not an error";
        }),
      ),
    );
    expect(unknown.ok).toBe(false);
    expect(unknown.lines.some((line) => line.text.includes(CONNECTION_TEST_MESSAGES.unknown))).toBe(true);
  });

  it("explains the answer for a same-origin page and for another origin", () => {
    const answer = {
      origin: "http://page.test",
      status: 204,
      allowOrigin: null,
      allowMethods: null,
      allowHeaders: null,
    };
    expect(corsVerdict(answer, "http://page.test")).toMatch(/share an origin, so the browser sends no preflight/);
    expect(corsVerdict(answer, "https://api.example")).toMatch(/does not allow this origin/);
    expect(corsVerdict({ ...answer, allowOrigin: "http://page.test" }, "https://api.example")).toMatch(
      /allows this origin/,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fromAddress as socketFrom } from "@fintech/testing/app";
import { createApp } from "../app";
import { ipv6Network64, normaliseIp, viewerAddressIp } from "./client-ip";
import { ORIGIN_PROOF_HEADER, ORIGIN_PROOF_MESSAGE, originProofMatches } from "./origin-verify";

type TestApp = { app: ReturnType<typeof createApp>; dispose(): Promise<void> };

/**
 * The rate limit counts in fixed windows of the core clock; a clock that stands still keeps
 * every attempt of a test in one window, however slowly the machine runs it.
 */
async function appWithFrozenClock(env: Record<string, string>): Promise<TestApp> {
  const { core } = await createTestApp(env);
  const now = core.clock();
  return { app: createApp({ ...core, clock: () => now }), dispose: () => core.dispose() };
}

const ORIGIN_SECRET = "origin-secret-that-only-cloudfront-and-the-app-know";
const PER_IP_LIMIT = "2";

/** The Lambda adapter's view: the event's request context. */
const lambdaEventFrom = (sourceIp: string) => ({ event: { requestContext: { http: { sourceIp } } } });

async function login(t: TestApp, headers: Record<string, string>, env?: object, email = "nobody@example.com") {
  const response = await t.app.request(
    "/api/v1/auth/login",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ email, password: "not the password" }),
    },
    env,
  );
  return { status: response.status, body: (await response.json()) as { message: string; code: string } };
}

const statuses = async (attempts: Promise<{ status: number }>[]) =>
  (await Promise.all(attempts)).map((reply) => reply.status);

/** Sequential on purpose: the counter is per window, and each attempt must see the previous one. */
async function loginsInTurn(count: number, attempt: (index: number) => Promise<{ status: number }>) {
  const seen: number[] = [];
  for (let index = 0; index < count; index += 1) seen.push((await attempt(index)).status);
  return seen;
}

describe("client address (local: no CDN)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithFrozenClock({ AUTH_RATE_LIMIT_PER_IP: PER_IP_LIMIT, AUTH_RATE_LIMIT_PER_EMAIL: "100" });
  });
  afterAll(async () => t.dispose());

  it("does not let a rotated X-Forwarded-For escape the per-IP login limit", async () => {
    const seen = await loginsInTurn(6, (index) =>
      login(t, { "X-Forwarded-For": `198.51.100.${index + 1}` }, socketFrom("203.0.113.7")),
    );
    expect(seen).toEqual([401, 401, 429, 429, 429, 429]);
  });

  it("does not trust a CloudFront-Viewer-Address the client wrote itself when there is no CDN", async () => {
    const seen = await loginsInTurn(3, (index) =>
      login(t, { "CloudFront-Viewer-Address": `192.0.2.${index + 1}:443` }, socketFrom("203.0.113.8")),
    );
    expect(seen).toEqual([401, 401, 429]);
  });

  it("counts each socket address on its own, IPv4 clients of a dual-stack server included", async () => {
    expect(await statuses([login(t, {}, socketFrom("::ffff:203.0.113.9"))])).toEqual([401]);
    expect(await statuses([login(t, {}, socketFrom("203.0.113.9"))])).toEqual([401]);
    expect(await statuses([login(t, {}, socketFrom("203.0.113.9"))])).toEqual([429]);
    expect(await statuses([login(t, {}, socketFrom("203.0.113.10"))])).toEqual([401]);
  });
});

describe("origin proof and client address (cloud: behind CloudFront)", () => {
  let t: TestApp;
  const proof = { [ORIGIN_PROOF_HEADER]: ORIGIN_SECRET };
  beforeAll(async () => {
    t = await appWithFrozenClock({
      ORIGIN_SECRET,
      AUTH_RATE_LIMIT_PER_IP: PER_IP_LIMIT,
      AUTH_RATE_LIMIT_PER_EMAIL: "100",
    });
  });
  afterAll(async () => t.dispose());

  it("refuses a request without the proof, or with a wrong one, with 403 and counts nothing", async () => {
    const direct = lambdaEventFrom("203.0.113.20");
    const withoutProof: Record<string, string>[] = [
      {},
      { [ORIGIN_PROOF_HEADER]: "guess" },
      { [ORIGIN_PROOF_HEADER]: `${ORIGIN_SECRET}x` },
    ];
    for (const headers of withoutProof) {
      const reply = await login(t, headers, direct);
      expect(reply).toEqual({ status: 403, body: { message: ORIGIN_PROOF_MESSAGE, code: "origin_proof_required" } });
    }
    const health = await t.app.request("/health", {}, direct);
    expect(health.status).toBe(403);
    // The refused attempts consumed none of this address's login budget.
    expect(await loginsInTurn(3, () => login(t, proof, direct))).toEqual([401, 401, 429]);
  });

  it("takes the viewer from CloudFront-Viewer-Address, whatever X-Forwarded-For says", async () => {
    const edge = lambdaEventFrom("130.176.0.1");
    const seen = await loginsInTurn(6, (index) =>
      login(
        t,
        { ...proof, "CloudFront-Viewer-Address": "198.51.100.77:50123", "X-Forwarded-For": `10.0.0.${index}` },
        edge,
      ),
    );
    expect(seen).toEqual([401, 401, 429, 429, 429, 429]);
    // Another viewer behind the same CloudFront edge has its own budget.
    expect(await statuses([login(t, { ...proof, "CloudFront-Viewer-Address": "198.51.100.78:50123" }, edge)])).toEqual([
      401,
    ]);
  });

  it("counts an IPv6 viewer by its /64", async () => {
    const viewer = (address: string) => ({ ...proof, "CloudFront-Viewer-Address": `${address}:443` });
    const edge = lambdaEventFrom("130.176.0.2");
    const seen = await loginsInTurn(3, (index) => login(t, viewer(`2001:db8:aa:bb::${index + 1}`), edge));
    expect(seen).toEqual([401, 401, 429]);
    expect(await statuses([login(t, viewer("2001:db8:aa:cc::1"), edge)])).toEqual([401]);
  });

  it("falls back to the Lambda event's source address when CloudFront's header is missing or malformed", async () => {
    const seen = await loginsInTurn(3, (index) =>
      login(
        t,
        { ...proof, "CloudFront-Viewer-Address": ["", "not-an-ip:1", "1.2.3.4"][index]! },
        lambdaEventFrom("203.0.113.30"),
      ),
    );
    expect(seen).toEqual([401, 401, 429]);
  });
});

describe("parsing and bounds", () => {
  it("reads CloudFront-Viewer-Address for IPv4 and IPv6, refusing anything else", () => {
    expect(viewerAddressIp("203.0.113.7:443")).toBe("203.0.113.7");
    expect(viewerAddressIp("2001:DB8::1:46532")).toBe("2001:db8::1");
    expect(viewerAddressIp("[2001:db8::1]:443")).toBe("2001:db8::1");
    for (const bad of [
      undefined,
      "",
      "203.0.113.7",
      "203.0.113.7:port",
      "evil:443",
      `${"1".repeat(60)}:443`,
      "203.0.113.7, 10.0.0.1:443",
    ]) {
      expect(viewerAddressIp(bad), String(bad)).toBeNull();
    }
  });

  it("keeps only real addresses of bounded length", () => {
    expect(normaliseIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    for (const bad of [undefined, 42, "", "unknown", "192.0.2.1; DROP", "a".repeat(200)])
      expect(normaliseIp(bad)).toBeNull();
  });

  it("reduces IPv6 addresses to their /64", () => {
    expect(ipv6Network64("2001:db8:aa:bb::1")).toBe("2001:db8:aa:bb::/64");
    expect(ipv6Network64("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipv6Network64("::1")).toBe("0:0:0:0::/64");
    expect(ipv6Network64("2001:0db8:0001:0002:0003:0004:0005:0006")).toBe("2001:db8:1:2::/64");
    expect(ipv6Network64("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("compares the origin proof exactly", () => {
    expect(originProofMatches(ORIGIN_SECRET, ORIGIN_SECRET)).toBe(true);
    for (const bad of [undefined, "", ORIGIN_SECRET.slice(1), ORIGIN_SECRET.toUpperCase()]) {
      expect(originProofMatches(ORIGIN_SECRET, bad)).toBe(false);
    }
  });
});

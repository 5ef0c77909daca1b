import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLUSH_WINDOW_SECONDS } from "@fintech/core/metrics/keys";
import { loadWindows } from "@fintech/core/metrics/store";
import type { CoreContext } from "@fintech/core/shared/context";
import { createTestContext } from "@fintech/testing/context";
import { ORIGIN_PROOF_HEADER } from "../http/origin-verify";
import { bufferedHandler } from "./buffered";

const ORIGIN_SECRET = "origin-secret-that-only-cloudfront-and-the-app-know";

type Handler = ReturnType<typeof bufferedHandler>["handler"];
type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/** A Lambda function URL event (payload format 2.0), as CloudFront's origin request arrives. */
function functionUrlEvent(path: string, headers: Record<string, string> = {}) {
  const [rawPath, rawQueryString = ""] = path.split("?");
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: rawPath!,
    rawQueryString,
    headers: { host: "abc123.lambda-url.us-east-1.on.aws", ...headers },
    isBase64Encoded: false,
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: "abc123.lambda-url.us-east-1.on.aws",
      domainPrefix: "abc123",
      http: {
        method: "GET",
        path: rawPath!,
        protocol: "HTTP/1.1",
        sourceIp: "130.176.0.9",
        userAgent: "Amazon CloudFront",
      },
      requestId: "request-id",
      routeKey: "$default",
      stage: "$default",
      time: "23/Nov/2026:10:00:00 +0000",
      timeEpoch: 0,
    },
  };
}

const invoke = (handler: Handler, event: ReturnType<typeof functionUrlEvent>) =>
  handler(event as unknown as Parameters<Handler>[0], {} as Parameters<Handler>[1]);

/** Counts the metrics PutItems a context sends to the table. */
function countingMetricWrites(core: CoreContext) {
  let writes = 0;
  const doc = new Proxy(core.db.doc, {
    get(target, property, receiver) {
      if (property !== "send") return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string }; input: { Item?: { entity?: unknown } } }) => {
        if (command.constructor.name === "PutCommand" && command.input.Item?.entity === "metrics") writes += 1;
        return (target.send as (command: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { core: { ...core, db: { ...core.db, doc } }, writes: () => writes };
}

describe("buffered Lambda handler", () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestContext({ ORIGIN_SECRET });
  });
  afterAll(async () => context.dispose());

  /** A clock that moves only when the test moves it, as if each invocation took no time. */
  const manualClock = (core: CoreContext) => {
    let now = core.clock().getTime();
    return {
      core: { ...core, clock: () => new Date(now) },
      advanceSeconds: (seconds: number) => (now += seconds * 1000),
    };
  };
  const frozenAt = (core: CoreContext) => manualClock(core).core;

  it("writes the instance's metrics from inside the invocation, at most once per window", async () => {
    const clock = manualClock(context);
    // Start at a window's first second, so the two invocations below share a window.
    clock.advanceSeconds(
      FLUSH_WINDOW_SECONDS - (Math.floor(clock.core.clock().getTime() / 1000) % FLUSH_WINDOW_SECONDS),
    );
    const counted = countingMetricWrites(clock.core);
    const { handler, metrics } = bufferedHandler(counted.core);
    const proof = { [ORIGIN_PROOF_HEADER]: ORIGIN_SECRET };
    const now = metrics.nowSecond();
    const windowsOfThisInstance = async () =>
      (await loadWindows(context.db, now - 60, now + 60)).windows.filter(
        (window) => window.instance_id === metrics.instanceId,
      );

    expect((await invoke(handler, functionUrlEvent("/health", proof))).statusCode).toBe(200);
    // No timer, no wait: an instance frozen for good right now has still left its request behind.
    expect((await windowsOfThisInstance()).map((window) => window.requests)).toEqual([1]);

    // Later invocations of the same window add no write: one item per instance and window.
    expect((await invoke(handler, functionUrlEvent("/api/v1/nothing", proof))).statusCode).toBe(404);
    expect((await invoke(handler, functionUrlEvent("/health", proof))).statusCode).toBe(200);
    expect(counted.writes()).toBe(1);

    // The first invocation of the next window writes the finished window complete, and its own.
    clock.advanceSeconds(FLUSH_WINDOW_SECONDS);
    expect((await invoke(handler, functionUrlEvent("/health", proof))).statusCode).toBe(200);
    const windows = await windowsOfThisInstance();
    expect(windows.map((window) => [window.requests, window.client_errors])).toEqual([
      [3, 1],
      [1, 0],
    ]);
    expect(counted.writes()).toBe(3);
    metrics.stop();
  });

  it("writes nothing for an invocation that recorded nothing (the status page's own polls)", async () => {
    const counted = countingMetricWrites(frozenAt(context));
    const { handler, metrics } = bufferedHandler(counted.core);
    const reply = await invoke(
      handler,
      functionUrlEvent("/api/v1/status/metrics?window=60", { [ORIGIN_PROOF_HEADER]: ORIGIN_SECRET }),
    );
    expect(reply.statusCode).toBe(401);
    expect(counted.writes()).toBe(0);
    metrics.stop();
  });

  it("refuses an invocation without CloudFront's origin proof, through the Lambda adapter too", async () => {
    const { handler, metrics } = bufferedHandler(frozenAt(context));
    const reply = await invoke(handler, functionUrlEvent("/health"));
    expect(reply.statusCode).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({
      message: "Requests must come through the site",
      code: "origin_proof_required",
    });
    metrics.stop();
  });
});

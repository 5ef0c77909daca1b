import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedPathPatterns } from "../../../infra/resources/routes";
import { createTestContext } from "@fintech/testing/context";
import { createApp } from "./app";
import { FEED_PATHS } from "@fintech/core/events/feed-paths";
import { createFeedsApp } from "./feeds-app";

/** A path matches a CloudFront path pattern (`*` stands for one or more characters). */
const matches = (pattern: string, path: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.?+^$()|[\]\\{}]/g, "\\$&"))
      .join(".+")}$`,
  ).test(path);

describe("the feeds app", () => {
  let context: Awaited<ReturnType<typeof createTestContext>>;
  beforeAll(async () => {
    context = await createTestContext();
  });
  afterAll(async () => context.dispose());

  it("serves exactly the paths CloudFront sends the feeds function", () => {
    for (const path of FEED_PATHS)
      expect(
        feedPathPatterns.some((pattern) => matches(pattern, path)),
        path,
      ).toBe(true);
    expect(FEED_PATHS).toHaveLength(6);
  });

  it("answers a stream as the whole app does, and anything else as a path it does not serve", async () => {
    const feeds = createFeedsApp(context);
    const whole = createApp(context);
    for (const path of FEED_PATHS) {
      const [a, b] = await Promise.all([feeds.request(path), whole.request(path)]);
      expect({ path, status: a.status, body: await a.text() }).toEqual({
        path,
        status: b.status,
        body: await b.text(),
      });
      expect(a.status).toBe(401);
      expect(a.headers.get("x-request-id")).toBeTruthy();
    }
    // The commands and health checks beside the streams stay with the API (it answers them; the feeds do not).
    for (const [method, path] of [
      ["POST", "/api/grpc/ledger/command"],
      ["GET", "/api/grpc/kyc/health"],
      ["GET", "/api/v1/accounts"],
    ] as const) {
      const reply = await feeds.request(path, { method });
      expect(reply.status, path).toBe(404);
      expect(await reply.json()).toEqual({ message: `No route for ${method} ${path}`, code: "not_found" });
      expect((await whole.request(path, { method })).status, path).not.toBe(404);
    }
  });
});

import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("JSON logger", () => {
  it("writes one JSON object per line with level, message and context", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { stage: "test" }, (line) => lines.push(line)).child({ request_id: "r-1" });
    logger.info("request", { status: 200 });
    logger.debug("hidden below the level");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "info",
      message: "request",
      stage: "test",
      request_id: "r-1",
      status: 200,
    });
  });

  it("never writes passwords, tokens, secrets or authorization headers, at any depth", () => {
    const lines: string[] = [];
    const logger = createLogger("debug", {}, (line) => lines.push(line));
    logger.info("body", {
      password: "hunter2-secret",
      body: { email: "a@b.co", new_password: "x-secret", nested: [{ token: "eyJ-secret" }] },
      headers: { Authorization: "Bearer abc-secret", "x-request-id": "ok" },
      jwt_secret: "s-secret",
    });
    expect(lines[0]).not.toMatch(/hunter2|x-secret|eyJ-secret|abc-secret|s-secret/);
    expect(JSON.parse(lines[0]!).body.email).toBe("a@b.co");
    expect(JSON.parse(lines[0]!).headers["x-request-id"]).toBe("ok");
  });

  it("logs errors with name and message", () => {
    const lines: string[] = [];
    createLogger("error", {}, (line) => lines.push(line)).error("failed", { error: new TypeError("boom") });
    expect(JSON.parse(lines[0]!).error).toMatchObject({ name: "TypeError", message: "boom" });
  });
});

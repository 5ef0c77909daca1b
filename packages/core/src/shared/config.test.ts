import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const secret = "a".repeat(32);

describe("loadConfig", () => {
  it("applies defaults and parses lists and flags", () => {
    const config = loadConfig({ JWT_SECRET: secret, CORS_ORIGINS: "https://a.example, https://b.example", ALLOW_TEST_BALANCE: "true" });
    expect(config).toMatchObject({ STAGE: "local", TABLE_NAME: "fintech-local", ALLOW_TEST_BALANCE: true, TOKEN_TTL_SECONDS: 86400 });
    expect(config.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it("refuses a short signing secret and malformed numbers with a readable error", () => {
    expect(() => loadConfig({ JWT_SECRET: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: "short" })).toThrow(/JWT_SECRET must be at least 32 characters/);
    expect(() => loadConfig({ JWT_SECRET: secret, AUTH_RATE_LIMIT_PER_IP: "lots" })).toThrow(/AUTH_RATE_LIMIT_PER_IP/);
    expect(() => loadConfig({ JWT_SECRET: secret, DYNAMODB_ENDPOINT: "not a url" })).toThrow(/DYNAMODB_ENDPOINT/);
  });

  it("takes an optional origin secret: absent locally, at least 32 characters when set", () => {
    expect(loadConfig({ JWT_SECRET: secret }).ORIGIN_SECRET).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: secret, ORIGIN_SECRET: "o".repeat(48) }).ORIGIN_SECRET).toBe("o".repeat(48));
    expect(() => loadConfig({ JWT_SECRET: secret, ORIGIN_SECRET: "short" })).toThrow(/ORIGIN_SECRET must be at least 32 characters/);
  });
});

import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";
import { KeyringError } from "./keyring";

const keys = `1:${"a".repeat(32)}`;

describe("loadConfig", () => {
  it("applies defaults and parses lists and flags", () => {
    const config = loadConfig({
      SESSION_KEYS: keys,
      CORS_ORIGINS: "https://a.example, https://b.example",
      ALLOW_TEST_BALANCE: "true",
    });
    expect(config).toMatchObject({
      STAGE: "local",
      TABLE_NAME: "fintech-local",
      ALLOW_TEST_BALANCE: true,
      TOKEN_TTL_SECONDS: 86400,
    });
    expect(config.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it("refuses malformed keyrings and numbers with a readable error that never echoes the secret", () => {
    expect(() => loadConfig({ SESSION_KEYS: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ SESSION_KEYS: "short" })).toThrow(/SESSION_KEYS: entry 1 must start with a version/);
    expect(() => loadConfig({ CURSOR_KEYS: "1:tooshort" })).toThrow(
      /CURSOR_KEYS: the secret of version 1 must be 32 to 512 printable characters/,
    );
    expect(() => loadConfig({ CURSOR_KEYS: "1:tooshort" })).not.toThrow(/tooshort/);
    expect(() => loadConfig({ API_KEY_HASH_KEYS: `${keys},${keys}` })).toThrow(/version 1 appears twice/);
    expect(() => loadConfig({ SESSION_KEYS: keys, AUTH_RATE_LIMIT_PER_IP: "lots" })).toThrow(/AUTH_RATE_LIMIT_PER_IP/);
    expect(() => loadConfig({ SESSION_KEYS: keys, DYNAMODB_ENDPOINT: "not a url" })).toThrow(/DYNAMODB_ENDPOINT/);
  });

  it("reads each keyring newest first, and names an unset one when it is used", () => {
    const config = loadConfig({ SESSION_KEYS: ` 2:${"b".repeat(40)} , ${keys}` });
    expect(config.SESSION_KEYS.versions.map((version) => version.version)).toEqual(["2", "1"]);
    expect(config.SESSION_KEYS.current.version).toBe("2");
    expect(config.SESSION_KEYS.find("1")?.key("label")).toHaveLength(32);
    expect(config.SESSION_KEYS.find("3")).toBeUndefined();
    expect(config.IDENTITY_HASH_KEYS.configured).toBe(false);
    expect(() => config.IDENTITY_HASH_KEYS.current).toThrow(KeyringError);
    expect(() => config.IDENTITY_HASH_KEYS.current).toThrow(/IDENTITY_HASH_KEYS is not set/);
  });

  it("takes optional origin secrets (current and previous): absent locally, at least 32 characters when set", () => {
    expect(loadConfig({}).ORIGIN_SECRET).toBeUndefined();
    expect(loadConfig({ ORIGIN_SECRET: "o".repeat(48), ORIGIN_SECRET_PREVIOUS: "p".repeat(48) })).toMatchObject({
      ORIGIN_SECRET: "o".repeat(48),
      ORIGIN_SECRET_PREVIOUS: "p".repeat(48),
    });
    expect(() => loadConfig({ ORIGIN_SECRET: "short" })).toThrow(/ORIGIN_SECRET must be at least 32 characters/);
    expect(() => loadConfig({ ORIGIN_SECRET_PREVIOUS: "short" })).toThrow(
      /ORIGIN_SECRET_PREVIOUS must be at least 32 characters/,
    );
  });
});

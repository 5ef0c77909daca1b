import { describe, expect, it } from "vitest";
import { loadConfig } from "@fintech/core/shared/config";
import { assertOriginProofConfigured } from "./context";
import { fallbackPath, secretPath, secretsToFetch } from "./secrets";

const base = {};

describe("Lambda start-up", () => {
  it("refuses to start a deployed function without the origin secret (fail closed)", () => {
    const deployed = { AWS_LAMBDA_FUNCTION_NAME: "pr-42-Api" };
    expect(() => assertOriginProofConfigured(loadConfig(base), deployed)).toThrow(/ORIGIN_SECRET is not set/);
    expect(() =>
      assertOriginProofConfigured(loadConfig({ ...base, ORIGIN_SECRET: "o".repeat(48) }), deployed),
    ).not.toThrow();
    // `sst dev` runs the function on a laptop, with no CloudFront in front; plain Node is local too.
    expect(() => assertOriginProofConfigured(loadConfig(base), { ...deployed, IS_LOCAL: "true" })).not.toThrow();
    expect(() => assertOriginProofConfigured(loadConfig(base), {})).not.toThrow();
  });

  it("fetches exactly the bound secrets SST marks, from SST's parameter paths", () => {
    const env = {
      SST_APP: "fintech-platform",
      SST_STAGE: "pr-42",
      SST_SSM_PREFIX: "/sst/fintech-platform/pr-42/",
      SST_Secret_value_SESSION_KEYS: "__FETCH_FROM_SSM__",
      SST_Secret_value_ALREADY_SET: "__FETCH_FROM_SSM__",
      ALREADY_SET: "from the environment",
      SST_Parameter_value_OTHER: "plain",
    };
    expect(secretsToFetch(env)).toEqual(["SESSION_KEYS"]);
    expect(secretPath(env, "SESSION_KEYS")).toBe("/sst/fintech-platform/pr-42/Secret/SESSION_KEYS/value");
    expect(fallbackPath(env, "SESSION_KEYS")).toBe("/sst/fintech-platform/.fallback/Secret/SESSION_KEYS/value");
  });
});

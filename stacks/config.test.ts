import "./testing";
import { describe, expect, it } from "vitest";
import config from "../sst.config";
import { LOCAL_ORIGINS } from "../infra/stage";
import { deploySettings, logRetentionFor } from "./settings";

describe("sst.config.ts", () => {
  it("names the app and defaults to us-east-1, overridable per deploy", async () => {
    const previous = process.env.AWS_REGION;
    delete process.env.AWS_REGION;
    try {
      expect(await config.config({})).toEqual({ name: "fintech-platform", region: "us-east-1" });
      expect((await config.config({ region: "eu-west-1" })).region).toBe("eu-west-1");
    } finally {
      if (previous !== undefined) process.env.AWS_REGION = previous;
    }
  });
});

describe("deploy settings", () => {
  it("admits the local dev servers outside production only", () => {
    expect(deploySettings("pr-42", {}).corsOrigins).toEqual([...LOCAL_ORIGINS]);
    expect(deploySettings("production", {}).corsOrigins).toEqual([]);
  });

  it("lets DEPLOY_CORS_ORIGINS replace the origins, ignoring blanks", () => {
    const settings = deploySettings("production", {
      DEPLOY_CORS_ORIGINS: " https://app.example.com, ,https://admin.example.com ",
    });
    expect(settings.corsOrigins).toEqual(["https://app.example.com", "https://admin.example.com"]);
    expect(settings.retainData).toBe(true);
  });

  it("maps retention days to SST's names and refuses days CloudWatch lacks", () => {
    expect(logRetentionFor(14)).toBe("two_weeks");
    expect(logRetentionFor(365)).toBe("one_year");
    expect(() => logRetentionFor(13)).toThrow(/13 days/);
  });
});

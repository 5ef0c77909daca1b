import { exportedValue, resourceOf, synth, type SynthesizedApp } from "./testing";
import { AllowedMethods, CachePolicy, OriginRequestPolicy } from "aws-cdk-lib/aws-cloudfront";
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPathPatterns, feedPathPatterns } from "../infra/spec";
import { Api } from "./Api";
import { Feeds } from "./Feeds";
import { behaviourOrder, FEED_READ_TIMEOUT_SECONDS, SPA_REWRITE, Web } from "./Web";

const SYNTH_TIMEOUT_MS = 60_000;

interface CacheBehavior {
  PathPattern: string;
  TargetOriginId: string;
  CachePolicyId: string;
  OriginRequestPolicyId: string;
  AllowedMethods: string[];
  ViewerProtocolPolicy: string;
  Compress: boolean;
  FunctionAssociations?: unknown;
}

interface Origin {
  Id: string;
  DomainName: unknown;
  CustomOriginConfig?: { OriginReadTimeout?: number; OriginProtocolPolicy: string };
}

interface DistributionConfig {
  CacheBehaviors: CacheBehavior[];
  DefaultCacheBehavior: CacheBehavior;
  Origins: Origin[];
  CustomErrorResponses?: unknown;
  DefaultRootObject: string;
}

/** True when CloudFront's `general` pattern also matches every path `specific` matches. */
function shadows(general: string, specific: string): boolean {
  if (general === specific) return true;
  if (!general.endsWith("*")) return false;
  return specific.startsWith(general.slice(0, -1));
}

/** The SPA rewrite exactly as CloudFront runs it: a script defining `handler`. */
function runRewrite(uri: string): string {
  const handler = new Function(`${SPA_REWRITE}\nreturn handler;`)() as (event: {
    request: { uri: string };
  }) => { uri: string };
  return handler({ request: { uri } }).uri;
}

describe("Web", () => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage: "pr-42" });
  }, SYNTH_TIMEOUT_MS);

  const template = () => built.template(Web);
  const config = () =>
    resourceOf(template(), "AWS::CloudFront::Distribution", "WebDistribution").Properties!
      .DistributionConfig as DistributionConfig;
  /** Which function a behaviour's origin points at: the stack exporting its function URL. */
  const originStack = (behavior: CacheBehavior) => {
    const origin = config().Origins.find((candidate) => candidate.Id === behavior.TargetOriginId)!;
    const split = (origin.DomainName as { "Fn::Select": [number, { "Fn::Split": [string, unknown] }] })["Fn::Select"];
    expect(split[0]).toBe(2);
    const imported = split[1]["Fn::Split"][1];
    for (const [name, stack, id] of [
      ["Api", Api, "Api"],
      ["Feeds", Feeds, "Feeds"],
    ] as const) {
      try {
        const value = exportedValue(built.template(stack), imported) as { "Fn::GetAtt": [string, string] };
        const url = resourceOf(built.template(stack), "AWS::Lambda::Url", id);
        if (value["Fn::GetAtt"][0] === url.id && value["Fn::GetAtt"][1] === "FunctionUrl") return { name, origin };
      } catch {
        // Not exported by this stack; try the next one.
      }
    }
    throw new Error(`Origin ${origin.Id} is not a function URL`);
  };

  it("routes every API and feed path, in an order where no pattern hides a later one", () => {
    const patterns = config().CacheBehaviors.map((behavior) => behavior.PathPattern);
    expect(patterns).toEqual(behaviourOrder);
    expect([...patterns].sort()).toEqual([...apiPathPatterns, ...feedPathPatterns].sort());
    patterns.forEach((pattern, index) => {
      for (const earlier of patterns.slice(0, index)) {
        expect(shadows(earlier, pattern), `${earlier} would swallow ${pattern}`).toBe(false);
      }
    });
    expect(patterns.indexOf("/api/grpc/*")).toBeLessThan(patterns.indexOf("/api/*"));
    expect(patterns.indexOf("/v1/payments/stream")).toBeLessThan(patterns.indexOf("/v1/*"));
  });

  it("passes API and feed requests through uncached, all methods, HTTPS only", () => {
    for (const behavior of config().CacheBehaviors) {
      expect(behavior, behavior.PathPattern).toMatchObject({
        CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
        OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
        AllowedMethods: AllowedMethods.ALLOW_ALL.methods,
        ViewerProtocolPolicy: "redirect-to-https",
      });
      expect(behavior.FunctionAssociations, behavior.PathPattern).toBeUndefined();
    }
  });

  it("sends /api/*, /v1/* and /health to the API function URL", () => {
    for (const pattern of apiPathPatterns) {
      const behavior = config().CacheBehaviors.find((candidate) => candidate.PathPattern === pattern)!;
      expect(originStack(behavior).name, pattern).toBe("Api");
    }
  });

  it("sends the feeds to the streaming function URL with a 60 s read timeout, uncompressed", () => {
    for (const pattern of feedPathPatterns) {
      const behavior = config().CacheBehaviors.find((candidate) => candidate.PathPattern === pattern)!;
      const { name, origin } = originStack(behavior);
      expect(name, pattern).toBe("Feeds");
      expect(origin.CustomOriginConfig).toMatchObject({
        OriginReadTimeout: FEED_READ_TIMEOUT_SECONDS,
        OriginProtocolPolicy: "https-only",
      });
      expect(behavior.Compress).toBe(false);
    }
    expect(FEED_READ_TIMEOUT_SECONDS).toBe(60);
  });

  it("serves deep links from index.html without masking API errors", () => {
    // Distribution-wide error pages would also rewrite the API's 403/404 replies.
    expect(config().CustomErrorResponses).toBeUndefined();
    expect(config().DefaultRootObject).toBe("index.html");
    const rewrite = resourceOf(template(), "AWS::CloudFront::Function", "SpaRewrite");
    template().resourceCountIs("AWS::CloudFront::Function", 1);
    expect(config().DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: "viewer-request", FunctionARN: { "Fn::GetAtt": [rewrite.id, "FunctionARN"] } },
    ]);
    expect(rewrite.Properties!.FunctionCode).toBe(SPA_REWRITE);

    expect(runRewrite("/")).toBe("/index.html");
    expect(runRewrite("/ledger")).toBe("/index.html");
    expect(runRewrite("/kyc/documents/42")).toBe("/index.html");
    expect(runRewrite("/assets/index-3f2a.js")).toBe("/assets/index-3f2a.js");
    expect(runRewrite("/favicon.ico")).toBe("/favicon.ico");
    expect(runRewrite("/.well-known/openid-configuration")).toBe("/.well-known/openid-configuration");
  });

  it("outputs the site URL", () => {
    template().hasOutput("SiteUrl", {
      Value: { "Fn::Join": ["", ["https://", { "Fn::GetAtt": [Match.stringLikeRegexp("^WebDistribution"), "DomainName"] }]] },
    });
  });
});

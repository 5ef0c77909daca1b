import { exportedValue, resourceOf, synth, type SynthesizedApp } from "./testing";
import { AllowedMethods, CachePolicy, OriginRequestPolicy } from "aws-cdk-lib/aws-cloudfront";
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPathPatterns, feedPathPatterns, kycDocumentsBucket } from "../infra/resources";
import { Api } from "./Api";
import { Feeds } from "./Feeds";
import { Dashboard } from "./Dashboard";
import { CLOUDFRONT_METRICS_REGION } from "./alarms";
import { LOCAL_ORIGINS } from "../infra/stage";
import { ORIGIN_PROOF_HEADER } from "../packages/functions/src/http/origin-verify";
import {
  AUTH_PATH_PREFIX,
  behaviourOrder,
  FEED_READ_TIMEOUT_SECONDS,
  SPA_REWRITE,
  STREAM_TICKET_PATH,
  WAF_AUTH_RATE_LIMIT_PER_5_MIN,
  WAF_RATE_LIMIT_PER_5_MIN,
  Web,
} from "./Web";

// Generous: synthesis bundles every function, and the machine may be busy with other work.
const SYNTH_TIMEOUT_MS = 300_000;

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
  OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
}

interface DistributionConfig {
  CacheBehaviors: CacheBehavior[];
  DefaultCacheBehavior: CacheBehavior & { ResponseHeadersPolicyId?: unknown };
  Origins: Origin[];
  CustomErrorResponses?: unknown;
  DefaultRootObject: string;
  Logging?: { Bucket: unknown; Prefix?: string };
  WebACLId?: unknown;
}

/** True when CloudFront's `general` pattern also matches every path `specific` matches. */
function shadows(general: string, specific: string): boolean {
  if (general === specific) return true;
  if (!general.endsWith("*")) return false;
  return specific.startsWith(general.slice(0, -1));
}

/**
 * A custom resource's call as JSON, with CloudFormation functions inside its strings written as
 * GetAtt(Resource.Attribute) / ImportValue(name), so a test can read it as data.
 */
function renderJoin(value: unknown): unknown {
  const join = (value as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (!join) return JSON.parse(value as string);
  const text = join[1]
    .map((part) => {
      if (typeof part === "string") return part;
      const getAtt = (part as { "Fn::GetAtt"?: [string, string] })["Fn::GetAtt"];
      if (getAtt) return `GetAtt(${getAtt[0]}.${getAtt[1]})`;
      return `ImportValue(${(part as { "Fn::ImportValue": string })["Fn::ImportValue"]})`;
    })
    .join(join[0]);
  return JSON.parse(text);
}

interface WafStatement {
  ByteMatchStatement?: {
    SearchString: string;
    PositionalConstraint: string;
    FieldToMatch: { UriPath?: object };
    TextTransformations: { Type: string }[];
  };
  AndStatement?: { Statements: WafStatement[] };
  NotStatement?: { Statement: WafStatement };
}

/** WAF's verdict for a request path under the statement kinds the web ACL uses (path byte matches, AND, NOT). */
function wafMatches(statement: WafStatement, path: string): boolean {
  if (statement.AndStatement) return statement.AndStatement.Statements.every((inner) => wafMatches(inner, path));
  if (statement.NotStatement) return !wafMatches(statement.NotStatement.Statement, path);
  const match = statement.ByteMatchStatement;
  if (!match?.FieldToMatch.UriPath) throw new Error(`Unsupported WAF statement ${JSON.stringify(statement)}`);
  const value = match.TextTransformations.some((transformation) => transformation.Type === "LOWERCASE")
    ? path.toLowerCase()
    : path;
  if (match.PositionalConstraint === "STARTS_WITH") return value.startsWith(match.SearchString);
  if (match.PositionalConstraint === "EXACTLY") return value === match.SearchString;
  throw new Error(`Unsupported positional constraint ${match.PositionalConstraint}`);
}

/** The SPA rewrite exactly as CloudFront runs it: a script defining `handler`. */
function runRewrite(uri: string): string {
  const handler = new Function(`${SPA_REWRITE}\nreturn handler;`)() as (event: { request: { uri: string } }) => {
    uri: string;
  };
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
    expect(patterns.indexOf("/api/grpc/*/stream")).toBeLessThan(patterns.indexOf("/api/*"));
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

  it("streams only the stream paths; the commands beside them reach the API, which may write", () => {
    const behaviourFor = (path: string) => {
      const pattern = behaviourOrder.find((candidate) =>
        new RegExp(`^${candidate.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(path),
      );
      return originStack(config().CacheBehaviors.find((behavior) => behavior.PathPattern === pattern)!).name;
    };
    expect(behaviourFor("/api/grpc/ledger/stream")).toBe("Feeds");
    expect(behaviourFor("/api/grpc/payment/stream")).toBe("Feeds");
    expect(behaviourFor("/v1/payments/stream")).toBe("Feeds");
    expect(behaviourFor("/api/grpc/ledger/command")).toBe("Api");
    expect(behaviourFor("/api/v1/auth/stream-ticket")).toBe("Api");
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

  it("adds the origin proof to every request it sends a function URL: the API stack's generated secret", () => {
    const secret = resourceOf(built.template(Api), "AWS::SecretsManager::Secret", "OriginSecret");
    for (const behavior of config().CacheBehaviors) {
      const { origin } = originStack(behavior);
      expect(origin.OriginCustomHeaders, behavior.PathPattern).toHaveLength(1);
      const [header] = origin.OriginCustomHeaders!;
      expect(header!.HeaderName.toLowerCase()).toBe(ORIGIN_PROOF_HEADER);
      const join = (header!.HeaderValue as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
      expect(join[0]).toBe("{{resolve:secretsmanager:");
      expect(exportedValue(built.template(Api), join[1])).toEqual({ Ref: secret.id });
      expect(join[2]).toBe(":SecretString:::}}");
    }
  });

  it("sends the SPA with a strict CSP, HSTS, nosniff, no framing and a referrer policy", () => {
    const policy = resourceOf(template(), "AWS::CloudFront::ResponseHeadersPolicy", "SiteSecurityHeaders");
    expect(config().DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policy.id });
    const headers = (
      policy.Properties!.ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: Record<string, Record<string, unknown>>;
      }
    ).SecurityHeadersConfig;
    expect(headers.StrictTransportSecurity).toMatchObject({
      AccessControlMaxAgeSec: 63072000,
      IncludeSubdomains: true,
      Override: true,
    });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: "strict-origin-when-cross-origin", Override: true });
    const csp = JSON.stringify(headers.ContentSecurityPolicy!.ContentSecurityPolicy);
    expect(headers.ContentSecurityPolicy!.Override).toBe(true);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("default-src 'self'");
    // Scripts only from the site: no inline script, no eval, no other host.
    const scriptSources = /script-src ([^;]*);/.exec(csp)![1];
    expect(scriptSources).toBe("'self'");
    // KYC uploads may go to the KYC bucket, and nowhere else besides the site.
    expect(csp).toMatch(/connect-src 'self' https:\/\/", *\{"Fn::ImportValue"/);
    // The API's own replies keep the app's headers: the policy is on the SPA behaviour only.
    for (const behavior of config().CacheBehaviors) expect(behavior).not.toHaveProperty("ResponseHeadersPolicyId");
  });

  it("writes access logs to a private, encrypted, expiring bucket", () => {
    const bucket = resourceOf(template(), "AWS::S3::Bucket", "AccessLogs");
    expect(config().Logging).toEqual({
      Bucket: { "Fn::GetAtt": [bucket.id, "RegionalDomainName"] },
      Prefix: "cloudfront/",
    });
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      // CloudFront's standard logs are delivered with an ACL, which needs object-writer ownership.
      OwnershipControls: { Rules: [{ ObjectOwnership: "ObjectWriter" }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 14, Status: "Enabled" }] },
    });
  });

  it("puts a WAF web ACL with per-address rate limits in front of the distribution (us-east-1)", () => {
    const acl = resourceOf(template(), "AWS::WAFv2::WebACL", "WebAcl");
    expect(config().WebACLId).toEqual({ "Fn::GetAtt": [acl.id, "Arn"] });
    expect(acl.Properties).toMatchObject({ Scope: "CLOUDFRONT", DefaultAction: { Allow: {} } });
    const rules = acl.Properties!.Rules as {
      Action: unknown;
      Statement: { RateBasedStatement: Record<string, unknown> };
    }[];
    expect(rules.map((rule) => rule.Action)).toEqual([{ Block: {} }, { Block: {} }]);
    expect(rules.map((rule) => rule.Statement.RateBasedStatement)).toEqual([
      { Limit: WAF_RATE_LIMIT_PER_5_MIN, AggregateKeyType: "IP" },
      expect.objectContaining({
        Limit: WAF_AUTH_RATE_LIMIT_PER_5_MIN,
        AggregateKeyType: "IP",
        ScopeDownStatement: {
          AndStatement: {
            Statements: [
              {
                ByteMatchStatement: expect.objectContaining({
                  SearchString: AUTH_PATH_PREFIX,
                  PositionalConstraint: "STARTS_WITH",
                  FieldToMatch: { UriPath: {} },
                }),
              },
              {
                NotStatement: {
                  Statement: {
                    ByteMatchStatement: expect.objectContaining({
                      SearchString: STREAM_TICKET_PATH,
                      PositionalConstraint: "EXACTLY",
                      FieldToMatch: { UriPath: {} },
                    }),
                  },
                },
              },
            ],
          },
        },
      }),
    ]);
  });

  it("counts sign-in requests against the sign-in rule, but not stream tickets", () => {
    const acl = resourceOf(template(), "AWS::WAFv2::WebACL", "WebAcl");
    const rule = (
      acl.Properties!.Rules as {
        Name: string;
        Statement: { RateBasedStatement: { ScopeDownStatement: WafStatement } };
      }[]
    ).find((candidate) => candidate.Name === "auth-rate-per-ip")!;
    const counted = (path: string) => wafMatches(rule.Statement.RateBasedStatement.ScopeDownStatement, path);
    expect(STREAM_TICKET_PATH.startsWith(AUTH_PATH_PREFIX)).toBe(true);
    for (const path of [
      "/api/v1/auth/login",
      "/api/v1/auth/register",
      "/API/V1/AUTH/LOGIN",
      "/api/v1/auth/stream-ticket/extra",
    ])
      expect(counted(path), path).toBe(true);
    for (const path of [
      STREAM_TICKET_PATH,
      "/API/v1/auth/Stream-Ticket",
      "/api/v1/ledger/accounts",
      "/api/grpc/ledger/stream",
    ])
      expect(counted(path), path).toBe(false);
  });

  it("gives the KYC bucket CORS for this stage's real origins: its distribution and the local dev servers", () => {
    const cors = resourceOf(template(), "Custom::AWS", "KycUploadCors");
    const distribution = resourceOf(template(), "AWS::CloudFront::Distribution", "WebDistribution");
    const call = renderJoin(cors.Properties!.Create) as {
      action: string;
      parameters: {
        Bucket: string;
        CORSConfiguration: { CORSRules: { AllowedOrigins: string[]; AllowedMethods: string[] }[] };
      };
    };
    expect(call.action).toBe("putBucketCors");
    expect(call.parameters.Bucket).toMatch(/^ImportValue\(.*KycDocumentsBucket.*\)$/);
    expect(call.parameters.CORSConfiguration.CORSRules).toHaveLength(1);
    expect(call.parameters.CORSConfiguration.CORSRules[0]!.AllowedOrigins).toEqual([
      `https://GetAtt(${distribution.id}.DomainName)`,
      ...LOCAL_ORIGINS,
    ]);
    expect(call.parameters.CORSConfiguration.CORSRules[0]!.AllowedMethods).toEqual([
      ...kycDocumentsBucket.cors.allowedMethods,
    ]);
    expect((renderJoin(cors.Properties!.Delete) as { action: string }).action).toBe("deleteBucketCors");
  });

  it("gives the settlements bucket POST-only CORS for the same origins (the reconciliation console's uploads)", () => {
    const cors = resourceOf(template(), "Custom::AWS", "SettlementUploadCors");
    const distribution = resourceOf(template(), "AWS::CloudFront::Distribution", "WebDistribution");
    const call = renderJoin(cors.Properties!.Create) as {
      action: string;
      parameters: {
        Bucket: string;
        CORSConfiguration: { CORSRules: { AllowedOrigins: string[]; AllowedMethods: string[] }[] };
      };
    };
    expect(call.action).toBe("putBucketCors");
    expect(call.parameters.Bucket).toMatch(/^ImportValue\(.*SettlementsBucket.*\)$/);
    expect(call.parameters.CORSConfiguration.CORSRules).toEqual([
      expect.objectContaining({
        AllowedOrigins: [`https://GetAtt(${distribution.id}.DomainName)`, ...LOCAL_ORIGINS],
        AllowedMethods: ["POST"],
      }),
    ]);
  });

  it("outputs the site URL", () => {
    template().hasOutput("SiteUrl", {
      Value: {
        "Fn::Join": ["", ["https://", { "Fn::GetAtt": [Match.stringLikeRegexp("^WebDistribution"), "DomainName"] }]],
      },
    });
  });
});

describe("Web outside us-east-1, on production", () => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    const previous = process.env.AWS_REGION;
    process.env.AWS_REGION = "eu-west-1";
    try {
      built = await synth({ stage: "production" });
    } finally {
      if (previous === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = previous;
    }
  }, SYNTH_TIMEOUT_MS);

  it("has no WAF (CloudFront's WAF lives in us-east-1 only) and says so in its outputs", () => {
    built.template(Web).resourceCountIs("AWS::WAFv2::WebACL", 0);
    built
      .template(Web)
      .hasOutput("WebAcl", { Value: "none: WAF for CloudFront needs us-east-1, this stage is in eu-west-1" });
  });

  it("has no CloudFront 5xx alarm (an alarm must sit in its metric's region, us-east-1); the dashboard graphs the rate from there", () => {
    const alarms = Object.values(built.template(Web).findResources("AWS::CloudWatch::Alarm")).map(
      (alarm) => alarm.Properties,
    );
    expect(alarms.filter((alarm) => alarm.Namespace === "AWS/CloudFront")).toEqual([]);
    const body = JSON.stringify(
      Object.values(built.template(Dashboard).findResources("AWS::CloudWatch::Dashboard"))[0]!.Properties.DashboardBody,
    );
    expect(body).toContain(`5xxErrorRate`);
    expect(body).toContain(`\\"region\\":\\"${CLOUDFRONT_METRICS_REGION}\\"`);
  });

  it("admits only the site's own origin to KYC uploads on production", () => {
    const cors = resourceOf(built.template(Web), "Custom::AWS", "KycUploadCors");
    const call = renderJoin(cors.Properties!.Create) as {
      parameters: { CORSConfiguration: { CORSRules: { AllowedOrigins: string[] }[] } };
    };
    expect(call.parameters.CORSConfiguration.CORSRules[0]!.AllowedOrigins).toEqual([
      expect.stringMatching(/^https:\/\/GetAtt\(WebDistribution.*\.DomainName\)$/),
    ]);
  });
});

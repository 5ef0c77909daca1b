import { Duration, RemovalPolicy } from "aws-cdk-lib";
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from "aws-cdk-lib/aws-cloudfront";
import { FunctionUrlOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from "aws-cdk-lib/aws-s3";
import { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from "aws-cdk-lib/custom-resources";
import { StaticSite, use, type StackContext } from "sst/constructs";
import { ORIGIN_PROOF_HEADER } from "../packages/functions/src/http/origin-verify";
import { contentSecurityPolicy, HSTS_MAX_AGE_SECONDS } from "../infra/security-headers";
import { apiPathPatterns, feedPathPatterns, kycDocumentsBucket, settlementsBucket } from "../infra/resources";
import type { BucketCorsRule } from "../infra/resources/buckets";
import { Alerts } from "./Alerts";
import { CLOUDFRONT_METRICS_REGION, cloudFrontErrorRateAlarm } from "./alarms";
import { Api } from "./Api";
import { Feeds } from "./Feeds";
import { deploySettings } from "./settings";
import { Storage } from "./Storage";

/** CloudFront's per-packet origin read timeout for the feeds; the app heartbeats well inside it. */
export const FEED_READ_TIMEOUT_SECONDS = 60;

/**
 * Path patterns in the order CloudFront must evaluate them: it takes the first match, so the
 * feed patterns, which sit inside "/api/*" and "/v1/*", come before the general API ones.
 */
export const behaviourOrder: readonly string[] = [...feedPathPatterns, ...apiPathPatterns];

/**
 * Deep links (/ledger, /kyc/123) must load the SPA. SST's `redirect_to_index_page` does that
 * with distribution-wide error responses, which would also turn the API's own 403 and 404
 * replies into index.html; rewriting extension-less paths on the static behaviour alone keeps
 * API errors intact.
 */
export const SPA_REWRITE = `
function handler(event) {
  var request = event.request;
  var last = request.uri.split("/").pop();
  if (!request.uri.startsWith("/.well-known/") && last.indexOf(".") === -1) {
    request.uri = "/index.html";
  }
  return request;
}`;

/** WAF for CloudFront exists only in us-east-1 (scope CLOUDFRONT); other regions go without. */
export const WAF_REGION = "us-east-1";
/** Requests per 5 minutes from one address, for the whole site and for the sign-in endpoints. */
export const WAF_RATE_LIMIT_PER_5_MIN = 2000;
export const WAF_AUTH_RATE_LIMIT_PER_5_MIN = 100;
export const AUTH_PATH_PREFIX = "/api/v1/auth/";
/**
 * Under the sign-in prefix but not a sign-in: a signed-in browser asks for a stream ticket each
 * time it opens a live feed, so counting them would let a few dozen tabs behind one office's
 * address lock the whole office out of sign-in. The site-wide rule still counts them.
 */
export const STREAM_TICKET_PATH = "/api/v1/auth/stream-ticket";

/**
 * Where the built SPA comes from. `WEB_PREBUILT_DIST` points at an already built directory so
 * a pipeline can deploy the artefact it tested, and the stack tests need not run Vite.
 */
function siteSource(env: Record<string, string | undefined> = process.env) {
  const prebuilt = env.WEB_PREBUILT_DIST;
  if (prebuilt) return { path: prebuilt, buildOutput: "." };
  return {
    path: "packages/web",
    buildCommand: "npm run build",
    buildOutput: "dist",
    // SST would otherwise write src/sst-env.d.ts into the web package; the site gets no
    // build-time environment from SST, so the file would be empty noise.
    vite: { types: "../../.sst/web-env.d.ts" },
  };
}

export function Web({ stack, app }: StackContext) {
  const storage = use(Storage);
  const api = use(Api);
  const feeds = use(Feeds);
  const settings = deploySettings(app.stage);
  const { alarmTopic } = use(Alerts);

  // Every request CloudFront forwards carries the origin proof; the app refuses any without it.
  // A viewer's own header of the same name is overwritten by CloudFront, never passed on.
  const originProof = { [ORIGIN_PROOF_HEADER]: api.originProof.current };

  const toFunction = {
    // Function URLs route on their own Host header; forwarding the viewer's gets a 403. This
    // managed policy also forwards CloudFront's headers, CloudFront-Viewer-Address among them:
    // the app's source for the viewer's address (packages/functions/src/http/client-ip.ts).
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
  } satisfies Omit<BehaviorOptions, "origin">;

  const apiBehaviour: BehaviorOptions = {
    ...toFunction,
    origin: new FunctionUrlOrigin(api.url, { customHeaders: originProof }),
  };
  const feedBehaviour: BehaviorOptions = {
    ...toFunction,
    origin: new FunctionUrlOrigin(feeds.url, {
      readTimeout: Duration.seconds(FEED_READ_TIMEOUT_SECONDS),
      customHeaders: originProof,
    }),
    // A compressing hop buffers events until it has enough bytes to compress.
    compress: false,
  };
  const feedPatterns: readonly string[] = feedPathPatterns;
  const additionalBehaviors = Object.fromEntries(
    behaviourOrder.map((pattern) => [pattern, feedPatterns.includes(pattern) ? feedBehaviour : apiBehaviour]),
  );

  const spaRewrite = new CloudFrontFunction(stack, "SpaRewrite", {
    code: FunctionCode.fromInline(SPA_REWRITE),
  });

  const kyc = storage.kycBucket.cdk.bucket;
  const settlements = storage.settlementsBucket.cdk.bucket;
  // The SPA's browser policy: tokens live in localStorage, so scripts come from the site only.
  const securityHeaders = new ResponseHeadersPolicy(stack, "SiteSecurityHeaders", {
    comment: `${app.stage}: CSP, HSTS and friends for the SPA`,
    securityHeadersBehavior: {
      contentSecurityPolicy: {
        contentSecurityPolicy: contentSecurityPolicy({
          // The reconciliation console posts settlement files straight to their bucket too.
          documentStoreOrigins: [
            `https://${kyc.bucketRegionalDomainName}`,
            `https://${settlements.bucketRegionalDomainName}`,
          ],
        }),
        override: true,
      },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
    },
  });

  // CloudFront standard access logs. Their delivery writes objects with an ACL, so this one
  // bucket allows object-writer ownership; it is otherwise private, encrypted and TLS only.
  const accessLogs = new Bucket(stack, "AccessLogs", {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.OBJECT_WRITER,
    enforceSSL: true,
    lifecycleRules: [{ expiration: Duration.days(settings.logRetentionDays) }],
    removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    autoDeleteObjects: !settings.retainData,
  });

  const webAcl = app.region === WAF_REGION ? rateLimitingWebAcl(stack, app.stage) : undefined;

  const site = new StaticSite(stack, "Web", {
    ...siteSource(),
    dev: { url: "http://localhost:5173" },
    cdk: {
      distribution: {
        additionalBehaviors,
        errorResponses: [],
        defaultBehavior: {
          functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
          responseHeadersPolicy: securityHeaders,
        },
        enableLogging: true,
        logBucket: accessLogs,
        logFilePrefix: "cloudfront/",
        webAclId: webAcl?.attrArn,
      },
    },
  });
  // StaticSite always creates its ".html"-appending function; ours replaced it above, so drop
  // that unused resource rather than deploy it.
  site.node.tryRemoveChild("CloudFrontFunction");

  // Under `sst dev` the site is not deployed (the Vite dev server stands in): local origins only.
  const distribution = site.cdk?.distribution;
  const siteOrigins = distribution ? [`https://${distribution.distributionDomainName}`] : [];
  kycUploadCors(stack, kyc, [...siteOrigins, ...settings.corsOrigins]);
  bucketUploadCors(stack, "SettlementUploadCors", settlements, settlementsBucket.id, settlementsBucket.cors, [
    ...siteOrigins,
    ...settings.corsOrigins,
  ]);
  if (distribution)
    cloudFrontErrorRateAlarm(stack, distribution.distributionId, alarmTopic, {
      alarm: app.region === CLOUDFRONT_METRICS_REGION,
    });

  stack.addOutputs({
    SiteUrl: site.url,
    AccessLogsBucket: accessLogs.bucketName,
    WebAcl: webAcl?.attrArn ?? `none: WAF for CloudFront needs ${WAF_REGION}, this stage is in ${app.region}`,
  });

  return { site, securityHeaders, accessLogs, webAcl };
}

/**
 * The KYC bucket's CORS, naming this stage's real origins: the distribution's own domain (plus
 * DEPLOY_CORS_ORIGINS, e.g. a custom domain, and the local dev servers outside production).
 * The domain only exists once this stack does, and Storage cannot reference it (Web depends on
 * Storage), so the rule is applied from here with one PutBucketCors call, not in the bucket's
 * own template (which therefore declares no CORS of its own).
 */
function kycUploadCors(stack: StackContext["stack"], bucket: IBucket, origins: string[]) {
  return bucketUploadCors(stack, "KycUploadCors", bucket, kycDocumentsBucket.id, kycDocumentsBucket.cors, origins);
}

/** One bucket's browser-upload CORS rule for these origins, applied with PutBucketCors (see kycUploadCors). */
function bucketUploadCors(
  stack: StackContext["stack"],
  id: string,
  bucket: IBucket,
  bucketId: string,
  rule: BucketCorsRule,
  origins: string[],
) {
  const parameters = {
    Bucket: bucket.bucketName,
    CORSConfiguration: {
      CORSRules: [
        {
          AllowedOrigins: origins,
          AllowedMethods: [...rule.allowedMethods],
          AllowedHeaders: [...rule.allowedHeaders],
          ExposeHeaders: [...rule.exposedHeaders],
          MaxAgeSeconds: rule.maxAgeSeconds,
        },
      ],
    },
  };
  return new AwsCustomResource(stack, id, {
    onUpdate: {
      service: "S3",
      action: "putBucketCors",
      parameters,
      physicalResourceId: PhysicalResourceId.of(`${bucketId}-cors`),
    },
    onDelete: { service: "S3", action: "deleteBucketCors", parameters: { Bucket: bucket.bucketName } },
    // Put and delete of a bucket's CORS are both the one IAM action s3:PutBucketCORS.
    policy: AwsCustomResourcePolicy.fromStatements([
      new PolicyStatement({ actions: ["s3:PutBucketCORS"], resources: [bucket.bucketArn] }),
    ]),
    installLatestAwsSdk: false,
  });
}

/** A WAF match on the request path, compared in lower case. */
function pathMatch(positionalConstraint: "STARTS_WITH" | "EXACTLY", searchString: string): CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint,
      searchString,
      textTransformations: [{ priority: 0, type: "LOWERCASE" }],
    },
  };
}

/**
 * A WAF web ACL in front of the distribution: per-address rate limits over 5 minutes, one for
 * the whole site and a tighter one for the sign-in endpoints (which the app also limits in the
 * table; WAF stops a flood before it costs a Lambda invocation or a write).
 */
function rateLimitingWebAcl(stack: StackContext["stack"], stage: string): CfnWebACL {
  const visibility = (metricName: string) => ({
    cloudWatchMetricsEnabled: true,
    sampledRequestsEnabled: true,
    metricName,
  });
  return new CfnWebACL(stack, "WebAcl", {
    scope: "CLOUDFRONT",
    defaultAction: { allow: {} },
    visibilityConfig: visibility(`${stage}-web`),
    rules: [
      {
        name: "rate-per-ip",
        priority: 0,
        action: { block: {} },
        statement: { rateBasedStatement: { limit: WAF_RATE_LIMIT_PER_5_MIN, aggregateKeyType: "IP" } },
        visibilityConfig: visibility(`${stage}-rate-per-ip`),
      },
      {
        name: "auth-rate-per-ip",
        priority: 1,
        action: { block: {} },
        statement: {
          rateBasedStatement: {
            limit: WAF_AUTH_RATE_LIMIT_PER_5_MIN,
            aggregateKeyType: "IP",
            scopeDownStatement: {
              andStatement: {
                statements: [
                  pathMatch("STARTS_WITH", AUTH_PATH_PREFIX),
                  { notStatement: { statement: pathMatch("EXACTLY", STREAM_TICKET_PATH) } },
                ],
              },
            },
          },
        },
        visibilityConfig: visibility(`${stage}-auth-rate-per-ip`),
      },
    ],
  });
}

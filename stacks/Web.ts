import { Duration } from "aws-cdk-lib";
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from "aws-cdk-lib/aws-cloudfront";
import { FunctionUrlOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { StaticSite, use, type StackContext } from "sst/constructs";
import { apiPathPatterns, feedPathPatterns } from "../infra/spec";
import { Api } from "./Api";
import { Feeds } from "./Feeds";

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

export function Web({ stack }: StackContext) {
  const api = use(Api);
  const feeds = use(Feeds);

  const toFunction = {
    // Function URLs route on their own Host header; forwarding the viewer's gets a 403.
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
  } satisfies Omit<BehaviorOptions, "origin">;

  const apiBehaviour: BehaviorOptions = { ...toFunction, origin: new FunctionUrlOrigin(api.url) };
  const feedBehaviour: BehaviorOptions = {
    ...toFunction,
    origin: new FunctionUrlOrigin(feeds.url, {
      readTimeout: Duration.seconds(FEED_READ_TIMEOUT_SECONDS),
    }),
    // A compressing hop buffers events until it has enough bytes to compress.
    compress: false,
  };
  const feedPatterns: readonly string[] = feedPathPatterns;
  const additionalBehaviors = Object.fromEntries(
    behaviourOrder.map((pattern) => [
      pattern,
      feedPatterns.includes(pattern) ? feedBehaviour : apiBehaviour,
    ]),
  );

  const spaRewrite = new CloudFrontFunction(stack, "SpaRewrite", {
    code: FunctionCode.fromInline(SPA_REWRITE),
  });

  const site = new StaticSite(stack, "Web", {
    ...siteSource(),
    dev: { url: "http://localhost:5173" },
    cdk: {
      distribution: {
        additionalBehaviors,
        errorResponses: [],
        defaultBehavior: {
          functionAssociations: [
            { function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST },
          ],
        },
      },
    },
  });
  // StaticSite always creates its ".html"-appending function; ours replaced it above, so drop
  // the now unused resource rather than deploy it.
  site.node.tryRemoveChild("CloudFrontFunction");

  stack.addOutputs({ SiteUrl: site.url });

  return { site };
}

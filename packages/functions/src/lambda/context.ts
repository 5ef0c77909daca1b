import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { loadBoundSecrets } from "./secrets";

/**
 * A deployed function without the origin secret would answer anyone who found its URL, so it
 * refuses to start instead. Under `sst dev` (IS_LOCAL) there is no CloudFront and no secret.
 */
export function assertOriginProofConfigured(
  config: AppConfig,
  env: Record<string, string | undefined> = process.env,
): void {
  const deployed = env.AWS_LAMBDA_FUNCTION_NAME !== undefined && env.IS_LOCAL !== "true";
  if (deployed && config.ORIGIN_SECRET === undefined) {
    throw new Error(
      "ORIGIN_SECRET is not set: a deployed function must only answer CloudFront (stacks/Api.ts sets it)",
    );
  }
}

/**
 * Built once per Lambda instance (cold start), reused by every invocation. The function that
 * sends payment steps (the API) adds its queue scheduler itself (api.ts), so the others do not
 * bundle the SQS client.
 */
export async function lambdaContext() {
  await loadBoundSecrets();
  const config = loadConfig();
  assertOriginProofConfigured(config);
  return createContext(config);
}

import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { sqsSchedulerFromEnv } from "./payment-queue";
import { loadBoundSecrets } from "./secrets";

/**
 * A deployed function without the origin secret would answer anyone who found its URL, so it
 * refuses to start instead. Under `sst dev` (IS_LOCAL) there is no CloudFront and no secret.
 */
export function assertOriginProofConfigured(config: AppConfig, env: Record<string, string | undefined> = process.env): void {
  const deployed = env.AWS_LAMBDA_FUNCTION_NAME !== undefined && env.IS_LOCAL !== "true";
  if (deployed && config.ORIGIN_SECRET === undefined) {
    throw new Error("ORIGIN_SECRET is not set: a deployed function must only answer CloudFront (stacks/Api.ts sets it)");
  }
}

/**
 * Built once per Lambda instance (cold start), reused by every invocation. A function the stack
 * gave the payment queue (the API) sends each new payment's next step there; the others (the
 * read-only feeds) have no scheduler.
 */
export async function lambdaContext() {
  await loadBoundSecrets();
  const config = loadConfig();
  assertOriginProofConfigured(config);
  const core = createContext(config);
  const paymentScheduler = sqsSchedulerFromEnv(core);
  return paymentScheduler ? { ...core, paymentScheduler } : core;
}

import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { FunctionProps } from "sst/constructs";
import { assertConcurrencyFits, stageSettings, type StageSettings } from "../infra/stage";

/**
 * Stage settings as the stacks apply them: infra/stage.ts plus deploy-time overrides. Dedicated
 * variable names (not CORS_ORIGINS) keep a developer's local .env, which SST loads before
 * synthesis, from leaking into a cloud stage. `DEPLOY_LAMBDA_CONCURRENCY_LIMIT` is the account's
 * Lambda concurrency quota in the stage's region when it was raised above the default (Service
 * Quotas shows it); production's feeds ceiling grows with it. Settings whose reservations cannot
 * deploy are refused here, before anything is synthesised.
 */
export function deploySettings(stage: string, env: Record<string, string | undefined> = process.env): StageSettings {
  const limitText = env.DEPLOY_LAMBDA_CONCURRENCY_LIMIT?.trim();
  const accountConcurrencyLimit = limitText ? Number(limitText) : undefined;
  if (
    accountConcurrencyLimit !== undefined &&
    !(Number.isInteger(accountConcurrencyLimit) && accountConcurrencyLimit > 0)
  ) {
    throw new Error(`DEPLOY_LAMBDA_CONCURRENCY_LIMIT must be a positive integer, got '${limitText}'`);
  }
  const settings = stageSettings(stage, { accountConcurrencyLimit });
  assertConcurrencyFits(stage, settings.concurrency);
  const override = env.DEPLOY_CORS_ORIGINS?.split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const withOrigins = override && override.length > 0 ? { ...settings, corsOrigins: override } : settings;
  const processor = env.DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL?.trim();
  if (!processor) return withOrigins;
  if (!SETTLEMENT_PROCESSOR_PRINCIPAL.test(processor)) {
    throw new Error(
      `DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL must be an AWS account root or role ARN, got '${processor}'`,
    );
  }
  return { ...withOrigins, settlementProcessorPrincipal: processor };
}

/** An account root (arn:aws:iam::123456789012:root) or a role ARN, in any AWS partition. */
const SETTLEMENT_PROCESSOR_PRINCIPAL = /^arn:aws[a-z-]*:iam::\d{12}:(root|role\/[\w+=,.@/-]{1,512})$/;

type LogRetention = NonNullable<FunctionProps["logRetention"]>;

/** SST wants the RetentionDays member name in lower case; infra/stage.ts speaks in days. */
export function logRetentionFor(days: number): LogRetention {
  const entry = Object.entries(RetentionDays).find(([, value]) => value === days);
  if (!entry) throw new Error(`No CloudWatch log retention of ${days} days`);
  return entry[0].toLowerCase() as LogRetention;
}

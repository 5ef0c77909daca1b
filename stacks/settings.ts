import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { FunctionProps } from "sst/constructs";
import { stageSettings, type StageSettings } from "../infra/stage";

/**
 * Stage settings as the stacks apply them: infra/stage.ts plus deploy-time overrides. A
 * dedicated variable name (not CORS_ORIGINS) keeps a developer's local .env, which SST loads
 * before synthesis, from leaking into a cloud stage.
 */
export function deploySettings(
  stage: string,
  env: Record<string, string | undefined> = process.env,
): StageSettings {
  const settings = stageSettings(stage);
  const override = env.DEPLOY_CORS_ORIGINS?.split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  return override && override.length > 0 ? { ...settings, corsOrigins: override } : settings;
}

type LogRetention = NonNullable<FunctionProps["logRetention"]>;

/** SST wants the RetentionDays member name in lower case; infra/stage.ts speaks in days. */
export function logRetentionFor(days: number): LogRetention {
  const entry = Object.entries(RetentionDays).find(([, value]) => value === days);
  if (!entry) throw new Error(`No CloudWatch log retention of ${days} days`);
  return entry[0].toLowerCase() as LogRetention;
}

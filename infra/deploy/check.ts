import { keyringEntries, keyringProblems } from "@fintech/core/shared/keyring";
import { KEY_SECRET_NAMES, type KeySecretName } from "@fintech/core/shared/secret-names";
import { fallbackPath, secretPath } from "@fintech/functions/lambda/secrets";
import { concurrencyProblems, stageSettings } from "../stage";
import type { DeployFacts } from "./facts";

/** The SST app's name (sst.config.ts): the root of its parameter paths in SSM. */
export const SST_APP_NAME = "fintech-platform";

/**
 * The single secret of the one-key scheme, which nothing reads: a stage that still has it is told
 * how to keep its stored hashes matching and then remove it (docs/cloud.md#keys).
 */
export const LEGACY_SECRET = "JWT_SECRET";

export interface DeployCheckInput {
  stage: string;
  /** The deploy's environment (what the stacks read at synthesis: ALARM_EMAIL, DEPLOY_*, ...). */
  env: Record<string, string | undefined>;
  facts: DeployFacts;
}

export interface DeployCheckReport {
  /** What must be fixed before a deploy; empty when ready. */
  problems: string[];
  /** Things an operator should know that do not block the deploy. */
  notes: string[];
  /** The report as printed, one line each. */
  lines: string[];
}

/** SST's parameter paths for a stage: its own, then the app-wide fallback (`sst secrets set-fallback`). */
function parameterPaths(stage: string, name: string) {
  const env = { SST_APP: SST_APP_NAME, SST_SSM_PREFIX: `/sst/${SST_APP_NAME}/${stage}/` };
  return { own: secretPath(env, name), fallback: fallbackPath(env, name) };
}

const setCommand = (name: string, stage: string) =>
  `npx sst secrets set ${name} "1:$(openssl rand -hex 32)" --stage ${stage}`;

/**
 * Everything a deploy of `stage` needs that the stacks cannot create themselves: one key secret
 * per purpose, each a well-formed keyring, no two sharing a secret; and the settings the stacks
 * read at synthesis. Secret values never appear in the report.
 */
export async function checkDeploy({ stage, env, facts }: DeployCheckInput): Promise<DeployCheckReport> {
  const problems: string[] = [];
  const notes: string[] = [];
  const lines: string[] = [`deploy:check for stage ${stage} (secrets from ${facts.source})`, "", "Secrets:"];
  const ok = (line: string) => lines.push(`  ok       ${line}`);
  const missing = (line: string) => {
    problems.push(line);
    lines.push(`  MISSING  ${line}`);
  };

  const names = [...KEY_SECRET_NAMES, LEGACY_SECRET];
  const paths = new Map(names.map((name) => [name, parameterPaths(stage, name)]));
  const values = await facts.parameters([...paths.values()].flatMap((path) => [path.own, path.fallback]));
  const secretValueOf = (name: string) => {
    const path = paths.get(name)!;
    const own = values.get(path.own) ?? null;
    return own !== null
      ? { value: own, where: "stage" }
      : values.get(path.fallback) != null
        ? { value: values.get(path.fallback)!, where: "fallback" }
        : null;
  };

  const owners = new Map<string, KeySecretName>();
  for (const name of KEY_SECRET_NAMES) {
    const found = secretValueOf(name);
    if (!found) {
      missing(`${name} is not set. Set it: ${setCommand(name, stage)}`);
      continue;
    }
    const malformed = keyringProblems(found.value);
    if (malformed.length > 0) {
      missing(`${name} is not a valid keyring: ${malformed.join("; ")}`);
      continue;
    }
    const entries = keyringEntries(found.value);
    const shared = entries
      .map((entry) => owners.get(entry.material))
      .find((owner) => owner !== undefined && owner !== name);
    if (shared) missing(`${name} reuses a secret of ${shared}: each purpose needs its own`);
    else
      ok(
        `${name}: ${entries.length} version${entries.length === 1 ? "" : "s"} (current ${entries[0]!.version})${found.where === "fallback" ? ", from the app-wide fallback" : ""}`,
      );
    for (const entry of entries) if (!owners.has(entry.material)) owners.set(entry.material, name);
  }
  if (secretValueOf(LEGACY_SECRET)) {
    notes.push(
      `${LEGACY_SECRET} is still set for this stage and nothing reads it. API keys and identity numbers hashed under it keep matching if it stays, as version "legacy", behind the newest version of API_KEY_HASH_KEYS and IDENTITY_HASH_KEYS ("1:<new>,legacy:<old value>"); then remove it: npx sst secrets remove ${LEGACY_SECRET} --stage ${stage}`,
    );
  }

  lines.push("", "Settings:");
  // As stacks/settings.ts reads it at synthesis.
  const limitText = env.DEPLOY_LAMBDA_CONCURRENCY_LIMIT?.trim();
  const accountConcurrencyLimit = limitText ? Number(limitText) : undefined;
  if (
    accountConcurrencyLimit !== undefined &&
    !(Number.isInteger(accountConcurrencyLimit) && accountConcurrencyLimit > 0)
  ) {
    missing(`DEPLOY_LAMBDA_CONCURRENCY_LIMIT must be a positive integer, got '${limitText}'`);
  } else {
    const { concurrency } = stageSettings(stage, { accountConcurrencyLimit });
    const unfit = concurrencyProblems(concurrency);
    if (unfit.length === 0) ok(`Lambda concurrency fits the account (limit ${concurrency.accountLimit})`);
    else missing(`Lambda concurrency does not fit the account: ${unfit.join("; ")}`);
  }
  if (env.ALARM_EMAIL?.trim()) ok("ALARM_EMAIL: alarms notify a person");
  else if (stageSettings(stage).isProduction)
    missing("ALARM_EMAIL is not set: a production stage's alarms would notify nobody");
  else notes.push("ALARM_EMAIL is not set: this stage's alarms notify nobody");
  if (env.ORIGIN_SECRET_ROTATION === "true") {
    notes.push(
      "ORIGIN_SECRET_ROTATION=true: the functions accept the current and the previous origin secret; deploy again without it once CloudFront has deployed",
    );
  }

  if (notes.length > 0) lines.push("", "Notes:", ...notes.map((note) => `  - ${note}`));
  lines.push(
    "",
    problems.length === 0
      ? "Ready to deploy."
      : `${problems.length} problem${problems.length === 1 ? "" : "s"}: not ready to deploy.`,
  );
  return { problems, notes, lines };
}

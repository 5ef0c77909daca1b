import { GetParametersCommand, SSMClient } from "@aws-sdk/client-ssm";

/** How SST v2 marks a bound Config.Secret in a function's environment. */
const SECRET_ENV = /^SST_Secret_value_(.+)$/;
const FETCH_FROM_SSM = "__FETCH_FROM_SSM__";
/** GetParameters takes at most 10 names per call. */
const SSM_BATCH = 10;

export interface BoundSecretsEnv {
  [name: string]: string | undefined;
}

/** Names of the bound secrets this function still has to fetch (the value is not set already). */
export function secretsToFetch(env: BoundSecretsEnv): string[] {
  return Object.entries(env)
    .filter(([, value]) => value === FETCH_FROM_SSM)
    .map(([name]) => SECRET_ENV.exec(name)?.[1])
    .filter((name): name is string => name !== undefined && !env[name]);
}

/** SST's parameter paths: the stage's own, then the app-wide fallback (`sst secrets set-fallback`). */
export const secretPath = (env: BoundSecretsEnv, name: string) => `${env.SST_SSM_PREFIX ?? ""}Secret/${name}/value`;
export const fallbackPath = (env: BoundSecretsEnv, name: string) =>
  `/sst/${env.SST_APP}/.fallback/Secret/${name}/value`;

async function getParameters(ssm: SSMClient, paths: string[]): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (let index = 0; index < paths.length; index += SSM_BATCH) {
    const reply = await ssm.send(
      new GetParametersCommand({ Names: paths.slice(index, index + SSM_BATCH), WithDecryption: true }),
    );
    for (const parameter of reply.Parameters ?? []) {
      if (parameter.Name && parameter.Value !== undefined) values.set(parameter.Name, parameter.Value);
    }
  }
  return values;
}

/**
 * In the cloud each key secret (packages/core/src/shared/secret-names.ts) is an SST Config.Secret
 * bound to the functions that use it: its value lives in SSM and is fetched once, at cold start,
 * and copied into the environment so the rest of the code reads configuration one way only
 * (packages/core/src/shared/config.ts). This does what SST's `sst/node/config` does, with the
 * SDK the app already bundles: SST's client brings a second, older copy of the AWS SDK into the
 * bundle (docs/cloud.md#functions-runtime-bundles-and-cold-start).
 */
export async function loadBoundSecrets(env: BoundSecretsEnv = process.env, ssm?: SSMClient): Promise<void> {
  const names = secretsToFetch(env);
  if (names.length === 0) return;
  const client = ssm ?? new SSMClient({});
  try {
    const primary = await getParameters(
      client,
      names.map((name) => secretPath(env, name)),
    );
    const missing = names.filter((name) => !primary.has(secretPath(env, name)));
    const fallback =
      missing.length > 0
        ? await getParameters(
            client,
            missing.map((name) => fallbackPath(env, name)),
          )
        : new Map<string, string>();
    const unset: string[] = [];
    for (const name of names) {
      const value = primary.get(secretPath(env, name)) ?? fallback.get(fallbackPath(env, name));
      if (value === undefined) unset.push(name);
      else env[name] = value;
    }
    if (unset.length > 0) {
      throw new Error(
        `Secrets not set for stage ${env.SST_STAGE}: ${unset.join(", ")} (npx sst secrets set <NAME> <value> --stage ${env.SST_STAGE})`,
      );
    }
  } finally {
    if (!ssm) client.destroy();
  }
}

import { GetParametersCommand, SSMClient } from "@aws-sdk/client-ssm";

/**
 * What `npm run deploy:check` needs to know about the target account: the value of an SSM
 * parameter (SST keeps each Config.Secret in one). An interface so the check runs against a
 * fake store in tests and against SSM before a real deploy.
 */
export interface DeployFacts {
  /** Where the facts come from, for the report. */
  readonly source: string;
  /** Each parameter's value (SecureStrings decrypted), or null where there is none. */
  parameters(names: readonly string[]): Promise<Map<string, string | null>>;
}

/** GetParameters takes at most 10 names per call. */
const SSM_BATCH = 10;

/** The stage's parameters in SSM, read with the caller's AWS credentials (the AWS SDK's default chain). */
export function ssmDeployFacts(
  region: string,
  client: SSMClient = new SSMClient({ region }),
): DeployFacts & { close(): void } {
  return {
    source: `SSM in ${region}`,
    async parameters(names) {
      const values = new Map<string, string | null>(names.map((name) => [name, null]));
      for (let index = 0; index < names.length; index += SSM_BATCH) {
        const reply = await client.send(
          new GetParametersCommand({ Names: names.slice(index, index + SSM_BATCH), WithDecryption: true }),
        );
        for (const parameter of reply.Parameters ?? []) {
          if (parameter.Name && parameter.Value !== undefined) values.set(parameter.Name, parameter.Value);
        }
      }
      return values;
    },
    close: () => client.destroy(),
  };
}

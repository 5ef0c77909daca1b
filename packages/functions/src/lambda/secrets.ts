/**
 * In the cloud the JWT signing secret is an SST Config.Secret bound to the function. SST's
 * runtime client resolves it from SSM at cold start; we copy it into the environment so the
 * rest of the code reads configuration one way only (packages/core/src/config.ts).
 */
export async function loadBoundSecrets(): Promise<void> {
  if (process.env.JWT_SECRET) return;
  const { Config } = await import("sst/node/config");
  process.env.JWT_SECRET = (Config as unknown as Record<string, string>).JWT_SECRET;
}

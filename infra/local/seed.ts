import { RegisterInput } from "@fintech/core/auth/model";
import { ensureAdmin } from "@fintech/core/auth/service";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { ConfigError } from "@fintech/core/shared/config";
import type { CoreContext } from "@fintech/core/shared/context";

/**
 * Idempotent start-up data: the ledger's system accounts (funding, sandbox, fees, FX, suspense
 * per currency), and the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when both are set
 * (never from a password written in code).
 */
export async function seedLocalData(core: CoreContext, env: Record<string, string | undefined>): Promise<void> {
  const created = await ensureSystemAccounts(core);
  if (created > 0) core.logger.info("system accounts created", { count: created });
  await seedAdminFromEnv(core, env);
}

/**
 * The bootstrapped admin's name when none is given (ADMIN_FIRST_NAME / ADMIN_LAST_NAME, or
 * --first-name / --last-name of admin:create). A person's name: the user menu shows the first name
 * next to the Platform menu, so a product word there would read as another menu.
 */
export const DEFAULT_ADMIN_NAME = { first: "Avery", last: "Admin" } as const;

export async function seedAdminFromEnv(core: CoreContext, env: Record<string, string | undefined>) {
  if (!env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) return null;
  const input = RegisterInput.safeParse({
    email: env.ADMIN_EMAIL,
    password: env.ADMIN_PASSWORD,
    first_name: env.ADMIN_FIRST_NAME || DEFAULT_ADMIN_NAME.first,
    last_name: env.ADMIN_LAST_NAME || DEFAULT_ADMIN_NAME.last,
  });
  if (!input.success) {
    throw new ConfigError(`ADMIN_EMAIL / ADMIN_PASSWORD are not usable: ${input.error.issues[0]?.message}`);
  }
  const result = await ensureAdmin(core, input.data);
  core.logger.info(result.created ? "admin account created" : "admin account updated", {
    user_id: result.user.id,
    email: result.user.email,
  });
  return result;
}

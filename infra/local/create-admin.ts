import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { createLogger } from "@fintech/core/shared/logger";
import { REPO_ROOT } from "./cli";
import { seedAdminFromEnv } from "./seed";
import { LOCAL_ENDPOINTS_FILE } from "./stack";

/**
 * `npm run admin:create -- --email you@example.com [--first-name Ada --last-name Lovelace]`:
 * creates the first admin (named "Avery Admin" unless a name is given), or promotes an existing
 * account and sets its password. The password comes from ADMIN_PASSWORD or a prompt, never from
 * the command line (it would end up in shell history).
 *
 * Locally it talks to the running `npm start` stack; in the cloud set TABLE_NAME (and AWS
 * credentials/region) to the stage's table.
 */
const { values } = parseArgs({
  options: { email: { type: "string" }, "first-name": { type: "string" }, "last-name": { type: "string" } },
});

async function promptPassword(): Promise<string> {
  if (!process.stdin.isTTY) throw new Error("Set ADMIN_PASSWORD (no terminal to prompt on)");
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question("Password for the admin (at least 8 characters): ");
  prompt.close();
  return answer;
}

function localEnvironment(): Record<string, string> {
  const file = path.join(path.resolve(REPO_ROOT, process.env.DATA_DIR ?? ".data"), LOCAL_ENDPOINTS_FILE);
  if (process.env.TABLE_NAME || !existsSync(file)) return {};
  const endpoints = JSON.parse(readFileSync(file, "utf8")) as { dynamodb: string; table: string };
  return { DYNAMODB_ENDPOINT: endpoints.dynamodb, TABLE_NAME: endpoints.table };
}

const email = values.email ?? process.env.ADMIN_EMAIL;
if (!email) {
  console.error(
    "Usage: npm run admin:create -- --email you@example.com [--first-name Ada --last-name Lovelace]   (password from ADMIN_PASSWORD or a prompt)",
  );
  process.exit(2);
}
const env = { ...process.env, ...localEnvironment() };
if (!env.TABLE_NAME) {
  console.error("No table to write to: start the local stack (npm start) first, or set TABLE_NAME for a cloud stage.");
  process.exit(2);
}
try {
  const password = process.env.ADMIN_PASSWORD ?? (await promptPassword());
  // No token is handed out here, so no key is needed.
  const config = loadConfig({ ...env, LOG_LEVEL: "warn" });
  const core = createContext(config, { logger: createLogger("warn") });
  const result = await seedAdminFromEnv(core, {
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: password,
    ADMIN_FIRST_NAME: values["first-name"],
    ADMIN_LAST_NAME: values["last-name"],
  });
  console.log(
    `${result?.created ? "Created" : "Promoted"} admin ${result?.user.email} (${result?.user.id}) in table ${config.TABLE_NAME}`,
  );
} catch (error) {
  console.error(`Could not create the admin: ${(error as Error).message}`);
  process.exit(1);
}

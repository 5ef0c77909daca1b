import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { loadBoundSecrets } from "./secrets";

/** Built once per Lambda instance (cold start), reused by every invocation. */
export async function lambdaContext() {
  await loadBoundSecrets();
  return createContext(loadConfig());
}

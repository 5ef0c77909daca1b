import { accountEndpoints } from "./accounts";
import { apiKeyEndpoints } from "./apiKeys";
import { authEndpoints } from "./auth";
import type { HttpClient } from "./client";
import { healthEndpoints } from "./health";
import { ledgerEndpoints } from "./ledger";
import { profileEndpoints } from "./profile";

/** Every endpoint of docs/product/backend-client.md#authenticated-calls, grouped by resource, over one HTTP client. */
export function createApi(http: HttpClient) {
  return {
    auth: authEndpoints(http),
    profile: profileEndpoints(http),
    apiKeys: apiKeyEndpoints(http),
    accounts: accountEndpoints(http),
    ledger: ledgerEndpoints(http),
    health: healthEndpoints(http),
  };
}

export type Api = ReturnType<typeof createApi>;

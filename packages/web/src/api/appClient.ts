import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { createHttpClient, type HttpClientConfig } from "./client";

const config: HttpClientConfig = {
  baseUrl: apiBaseUrl,
  // Looked up per call so tests and devtools that patch window.fetch are honoured.
  fetch: (request) => globalThis.fetch(request),
  credentials: credentialStore,
};

/**
 * The app's one HTTP client (the SDK's transport, configured in client.ts): same-origin by
 * default, token from the stored session, 401s sign out. The core API (api/index.ts) and the
 * screens' own endpoint groups loaded with their screens (KYC, reviewer back office) share it, so
 * the initial bundle stays small without a second client.
 */
export const appHttp = createHttpClient(config);

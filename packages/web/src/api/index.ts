import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { createApi } from "./api";
import { createHttpClient, type HttpClientConfig } from "./client";

const config: HttpClientConfig = {
  baseUrl: apiBaseUrl,
  // Looked up per call so tests and devtools that patch window.fetch are honoured.
  fetch: (url, init) => globalThis.fetch(url, init),
  credentials: credentialStore,
};

/** The app's API: same-origin by default, token from the stored session, 401s sign out. */
export const api = createApi(createHttpClient(config));

export { ApiError, API_MESSAGES } from "./errors";
export { buildCurl } from "./curl";

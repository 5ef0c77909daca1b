import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { createApi } from "./api";
import { createHttpClient } from "./client";

/** The app's API: same-origin by default, token from the stored session, 401s sign out. */
export const api = createApi(
  createHttpClient({
    baseUrl: apiBaseUrl,
    // Looked up per call so tests and devtools that patch window.fetch are honoured.
    fetch: (url, init) => globalThis.fetch(url, init),
    credentials: credentialStore,
  }),
);

export { ApiError, API_MESSAGES } from "./errors";
export { buildCurl } from "./curl";

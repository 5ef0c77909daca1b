import { createApi } from "./api";
import { appHttp } from "./appClient";

/** The app's API: same-origin by default, token from the stored session, 401s sign out. */
export const api = createApi(appHttp);

export { ApiError, API_MESSAGES } from "./errors";
export { buildCurl } from "./curl";

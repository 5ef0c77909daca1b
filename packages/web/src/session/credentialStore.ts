import { STORAGE_KEYS } from "../constants";
import { createCredentialStore } from "./credentials";
import { browserStorage } from "./storage";

/** The one session of this page, restored from localStorage on start. */
export const credentialStore = createCredentialStore(browserStorage(), {
  token: STORAGE_KEYS.authToken,
  user: STORAGE_KEYS.authUser,
});

// Signing in or out in another tab changes this tab too, instead of leaving a stale menu.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === STORAGE_KEYS.authToken || event.key === STORAGE_KEYS.authUser) {
      credentialStore.reload();
    }
  });
}

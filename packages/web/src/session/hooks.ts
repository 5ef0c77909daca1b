import { useSyncExternalStore } from "react";
import { credentialStore } from "./credentialStore";
import type { Session } from "./credentials";
import type { Theme } from "./theme";
import { themeStore } from "./themeStore";

/** The signed-in session, or null; re-renders on sign-in, sign-out, 401s and other tabs. */
export function useSession(): Session | null {
  return useSyncExternalStore(credentialStore.subscribe, credentialStore.getSession, () => null);
}

export function useTheme(): Theme {
  return useSyncExternalStore(themeStore.subscribe, themeStore.getTheme, () => "dark");
}

import { STORAGE_KEYS } from "../constants";
import { browserStorage } from "./storage";
import { createThemeStore } from "./theme";

/** Created on import so the stored theme is on <html> before React renders anything. */
export const themeStore = createThemeStore(
  browserStorage(),
  STORAGE_KEYS.theme,
  typeof document === "undefined" ? null : document.documentElement,
);

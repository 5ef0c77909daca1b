import type { KeyValueStorage } from "./storage";

export type Theme = "light" | "dark";

/** docs/product/session.md#theme: only the exact value 'light' is light; anything else, or nothing, is dark. */
export function parseTheme(stored: string | null): Theme {
  return stored === "light" ? "light" : "dark";
}

export const oppositeTheme = (theme: Theme): Theme => (theme === "dark" ? "light" : "dark");

/** The part of document.documentElement the theme touches. */
export interface ThemeRoot {
  classList: { toggle(token: string, force?: boolean): boolean };
  style: { colorScheme: string };
}

export function applyTheme(theme: Theme, root: ThemeRoot): void {
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
}

export interface ThemeStore {
  getTheme(): Theme;
  setTheme(theme: Theme): void;
  toggle(): void;
  subscribe(listener: () => void): () => void;
}

export function createThemeStore(storage: KeyValueStorage, key: string, root: ThemeRoot | null): ThemeStore {
  const listeners = new Set<() => void>();
  let current = parseTheme(storage.getItem(key));
  if (root) applyTheme(current, root);

  const setTheme = (theme: Theme) => {
    try {
      storage.setItem(key, theme);
    } catch {
      // Blocked storage: the choice holds until reload.
    }
    if (theme === current) return;
    current = theme;
    if (root) applyTheme(theme, root);
    for (const listener of [...listeners]) listener();
  };

  return {
    getTheme: () => current,
    setTheme,
    toggle: () => setTheme(oppositeTheme(current)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

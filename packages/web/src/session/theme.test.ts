import { describe, expect, it, vi } from "vitest";
import { createMemoryStorage } from "./storage";
import { applyTheme, createThemeStore, oppositeTheme, parseTheme, type ThemeRoot } from "./theme";

function fakeRoot(): ThemeRoot & { classes: Set<string> } {
  const classes = new Set<string>();
  return {
    classes,
    classList: {
      toggle(token: string, force?: boolean) {
        const on = force ?? !classes.has(token);
        if (on) classes.add(token);
        else classes.delete(token);
        return on;
      },
    },
    style: { colorScheme: "" },
  };
}

describe("parseTheme", () => {
  it("reads only the exact value 'light' as light", () => {
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme(null)).toBe("dark");
    expect(parseTheme("Light")).toBe("dark");
    expect(parseTheme("")).toBe("dark");
  });

  it("flips", () => {
    expect(oppositeTheme("dark")).toBe("light");
    expect(oppositeTheme("light")).toBe("dark");
  });
});

describe("applyTheme", () => {
  it("puts the dark class on the root only for dark", () => {
    const root = fakeRoot();
    applyTheme("dark", root);
    expect(root.classes.has("dark")).toBe(true);
    expect(root.style.colorScheme).toBe("dark");
    applyTheme("light", root);
    expect(root.classes.has("dark")).toBe(false);
    expect(root.style.colorScheme).toBe("light");
  });
});

describe("theme store", () => {
  it("defaults to dark and applies it at once", () => {
    const root = fakeRoot();
    const store = createThemeStore(createMemoryStorage(), "theme", root);
    expect(store.getTheme()).toBe("dark");
    expect(root.classes.has("dark")).toBe(true);
  });

  it("restores light from storage", () => {
    const root = fakeRoot();
    const store = createThemeStore(createMemoryStorage({ theme: "light" }), "theme", root);
    expect(store.getTheme()).toBe("light");
    expect(root.classes.has("dark")).toBe(false);
  });

  it("toggles, saves under 'theme' and notifies", () => {
    const storage = createMemoryStorage();
    const root = fakeRoot();
    const store = createThemeStore(storage, "theme", root);
    const listener = vi.fn();
    store.subscribe(listener);
    store.toggle();
    expect(storage.getItem("theme")).toBe("light");
    expect(root.classes.has("dark")).toBe(false);
    store.toggle();
    expect(storage.getItem("theme")).toBe("dark");
    expect(root.classes.has("dark")).toBe(true);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

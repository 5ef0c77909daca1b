/** The part of the Web Storage API the session needs; tests pass an in-memory one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function createMemoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/**
 * localStorage when the browser allows it. Private modes and locked-down embeds throw on
 * access or on write; the app then keeps its state for this page only instead of crashing.
 */
export function browserStorage(): KeyValueStorage {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return createMemoryStorage();
    const probe = "__storage_probe__";
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return createMemoryStorage();
  }
}

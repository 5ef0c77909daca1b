import { parseStoredUser, type SessionUser } from "./sessionUser";
import type { KeyValueStorage } from "./storage";

export interface Session {
  token: string;
  user: SessionUser;
}

export interface CredentialKeys {
  token: string;
  user: string;
}

export interface CredentialStore {
  /** The same object until the session changes, as useSyncExternalStore requires. */
  getSession(): Session | null;
  getToken(): string | null;
  save(token: string, user: SessionUser): void;
  clear(): void;
  /** Re-reads storage, e.g. after another tab signed in or out. */
  reload(): void;
  subscribe(listener: () => void): () => void;
}

function readSession(storage: KeyValueStorage, keys: CredentialKeys): Session | null {
  const token = storage.getItem(keys.token);
  const user = parseStoredUser(storage.getItem(keys.user));
  return token && user ? { token, user } : null;
}

function sameSession(a: Session | null, b: Session | null): boolean {
  if (a === null || b === null) return a === b;
  return a.token === b.token && JSON.stringify(a.user) === JSON.stringify(b.user);
}

/**
 * Token and user live under two storage keys and are only meaningful together: half a
 * session (a token without a readable user, or the reverse) is treated as signed out.
 */
export function createCredentialStore(storage: KeyValueStorage, keys: CredentialKeys): CredentialStore {
  const listeners = new Set<() => void>();
  let current = readSession(storage, keys);

  const publish = (next: Session | null) => {
    if (sameSession(current, next)) return;
    current = next;
    for (const listener of [...listeners]) listener();
  };

  const write = (action: () => void) => {
    try {
      action();
    } catch {
      // Storage full or blocked: the session still holds for this page, it just won't survive a reload.
    }
  };

  return {
    getSession: () => current,
    getToken: () => current?.token ?? null,
    save(token, user) {
      write(() => {
        storage.setItem(keys.token, token);
        storage.setItem(keys.user, JSON.stringify(user));
      });
      publish({ token, user });
    },
    clear() {
      write(() => {
        storage.removeItem(keys.token);
        storage.removeItem(keys.user);
      });
      publish(null);
    },
    reload: () => publish(readSession(storage, keys)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

import { describe, expect, it, vi } from "vitest";
import { createCredentialStore } from "./credentials";
import { createMemoryStorage } from "./storage";

const keys = { token: "authToken", user: "authUser" };
const user = { id: "u1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", role: "user" };

describe("credential store", () => {
  it("restores a stored token and user on start", () => {
    const storage = createMemoryStorage({ authToken: "t1", authUser: JSON.stringify(user) });
    expect(createCredentialStore(storage, keys).getSession()).toEqual({ token: "t1", user });
  });

  it("treats half a session or a malformed user as signed out", () => {
    expect(createCredentialStore(createMemoryStorage({ authToken: "t1" }), keys).getSession()).toBeNull();
    expect(
      createCredentialStore(createMemoryStorage({ authUser: JSON.stringify(user) }), keys).getSession(),
    ).toBeNull();
    expect(
      createCredentialStore(createMemoryStorage({ authToken: "t", authUser: "{not json" }), keys).getSession(),
    ).toBeNull();
    expect(
      createCredentialStore(createMemoryStorage({ authToken: "t", authUser: '{"id":"u"}' }), keys).getSession(),
    ).toBeNull();
  });

  it("saves both keys in the documented shape and notifies", () => {
    const storage = createMemoryStorage();
    const store = createCredentialStore(storage, keys);
    const listener = vi.fn();
    store.subscribe(listener);
    store.save("t2", user);
    expect(storage.getItem("authToken")).toBe("t2");
    expect(JSON.parse(storage.getItem("authUser") ?? "null")).toEqual(user);
    expect(store.getToken()).toBe("t2");
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("clears both keys", () => {
    const storage = createMemoryStorage({ authToken: "t1", authUser: JSON.stringify(user) });
    const store = createCredentialStore(storage, keys);
    store.clear();
    expect(storage.getItem("authToken")).toBeNull();
    expect(storage.getItem("authUser")).toBeNull();
    expect(store.getSession()).toBeNull();
  });

  it("keeps the same snapshot until something changes", () => {
    const storage = createMemoryStorage({ authToken: "t1", authUser: JSON.stringify(user) });
    const store = createCredentialStore(storage, keys);
    const first = store.getSession();
    const listener = vi.fn();
    store.subscribe(listener);
    store.reload();
    expect(store.getSession()).toBe(first);
    expect(listener).not.toHaveBeenCalled();
    storage.removeItem("authToken");
    store.reload();
    expect(store.getSession()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("still signs in for this page when storage refuses writes", () => {
    const storage = {
      ...createMemoryStorage(),
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const store = createCredentialStore(storage, keys);
    store.save("t3", user);
    expect(store.getToken()).toBe("t3");
  });
});

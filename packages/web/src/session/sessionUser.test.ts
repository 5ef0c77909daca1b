import { describe, expect, it } from "vitest";
import { displayName, greetingName, initials, parseStoredUser, toSessionUser } from "./sessionUser";

describe("session user", () => {
  const user = toSessionUser({
    id: 42,
    email: "ada@example.com",
    first_name: "Ada",
    last_name: "Lovelace",
    role: "admin",
  });

  it("maps the server's snake_case fields", () => {
    expect(user).toEqual({ id: "42", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", role: "admin" });
  });

  it("round-trips through storage", () => {
    expect(parseStoredUser(JSON.stringify(user))).toEqual(user);
    expect(parseStoredUser("[]")).toBeNull();
    expect(parseStoredUser(null)).toBeNull();
  });

  it("names the user for menus and toasts", () => {
    expect(displayName(user)).toBe("Ada Lovelace");
    expect(greetingName(user)).toBe("Ada");
    expect(initials(user)).toBe("AL");
    const anonymous = toSessionUser({ id: "1", email: "zed@example.com" });
    expect(displayName(anonymous)).toBe("zed@example.com");
    expect(greetingName(anonymous)).toBe("User");
    expect(initials(anonymous)).toBe("Z");
  });
});

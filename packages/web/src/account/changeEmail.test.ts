import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { changeEmailFormSchema, confirmationToken } from "./changeEmail";

describe("change-email form", () => {
  it("takes a valid address (lower-cased) and the current password", () => {
    expect(changeEmailFormSchema.parse({ email: " New@Example.com ", currentPassword: "pw" })).toEqual({
      email: "new@example.com",
      currentPassword: "pw",
    });
    expect(changeEmailFormSchema.safeParse({ email: "nope", currentPassword: "pw" }).error?.issues[0]?.message).toBe(
      AUTH_MESSAGES.invalidEmail,
    );
    expect(
      changeEmailFormSchema.safeParse({ email: "a@example.com", currentPassword: "" }).error?.issues[0]?.message,
    ).toBe(AUTH_MESSAGES.currentPasswordRequired);
  });

  it("reads the token of a confirmation link, and nothing that cannot be one", () => {
    const token = "A".repeat(43);
    expect(confirmationToken(`?token=${token}`)).toBe(token);
    expect(confirmationToken("?token=short")).toBeNull();
    expect(confirmationToken("")).toBeNull();
    expect(confirmationToken(`?token=${"A".repeat(42)}%3C`)).toBeNull();
  });
});

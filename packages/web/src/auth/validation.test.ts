import { describe, expect, it } from "vitest";
import { validateLogin, validateRegister, type RegisterForm } from "./validation";

const valid: RegisterForm = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "Ada@Example.com",
  password: "correct-horse",
  confirmPassword: "correct-horse",
  phone: "",
  dateOfBirth: "",
};

const message = (form: RegisterForm) => {
  const result = validateRegister(form);
  return result.ok ? null : result.message;
};

describe("validateRegister", () => {
  it("requires first name, last name, email, password and confirmation", () => {
    for (const field of ["firstName", "lastName", "email", "password", "confirmPassword"] as const) {
      expect(message({ ...valid, [field]: "  " })).toBe("Please fill in all required fields");
    }
  });

  it("checks that the passwords match before their length", () => {
    expect(message({ ...valid, password: "short", confirmPassword: "shorter" })).toBe("Passwords do not match");
    expect(message({ ...valid, password: "short", confirmPassword: "short" })).toBe(
      "Password must be at least 8 characters long",
    );
  });

  it("builds the API body: email normalised, optional fields null", () => {
    expect(validateRegister(valid)).toEqual({
      ok: true,
      body: {
        email: "ada@example.com",
        password: "correct-horse",
        first_name: "Ada",
        last_name: "Lovelace",
        phone: null,
        date_of_birth: null,
      },
    });
  });

  it("sends the date of birth as an ISO timestamp", () => {
    const result = validateRegister({ ...valid, phone: "+1 555 0100", dateOfBirth: "1990-05-01" });
    expect(result).toMatchObject({
      ok: true,
      body: { phone: "+1 555 0100", date_of_birth: "1990-05-01T00:00:00.000Z" },
    });
  });
});

describe("validateLogin", () => {
  it("requires both fields", () => {
    expect(validateLogin({ email: "", password: "x" })).toEqual({ ok: false, message: "Please fill in all fields" });
    expect(validateLogin({ email: "a@b.co", password: "" })).toEqual({
      ok: false,
      message: "Please fill in all fields",
    });
  });

  it("passes a filled form", () => {
    expect(validateLogin({ email: "a@b.co", password: "x" })).toEqual({
      ok: true,
      body: { email: "a@b.co", password: "x" },
    });
  });
});

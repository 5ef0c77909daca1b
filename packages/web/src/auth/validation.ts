import { AUTH_MESSAGES, LoginInput, RegisterInput, passwordsMatch } from "@fintech/core/auth/model";

export interface LoginForm {
  email: string;
  password: string;
}

export interface RegisterForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  phone: string;
  /** yyyy-mm-dd from the date input, or empty. */
  dateOfBirth: string;
}

export type Validated<T> = { ok: true; body: T } | { ok: false; message: string };

const firstIssue = (issues: readonly { message: string }[]) =>
  issues[0]?.message ?? AUTH_MESSAGES.registerFieldsRequired;

/** docs/product/session.md#messages: both fields required ('Please fill in all fields'), checked before any request. */
export function validateLogin(form: LoginForm): Validated<LoginInput> {
  const parsed = LoginInput.safeParse(form);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, message: firstIssue(parsed.error.issues) };
}

/**
 * The messages of docs/product/session.md#messages, in its order: required fields, then matching
 * passwords, then length; then the server's own rules (email format, phone, date of birth) from the
 * shared schema, so the form never sends what the API would refuse.
 */
export function validateRegister(form: RegisterForm): Validated<RegisterInput> {
  const required = [form.firstName, form.lastName, form.email, form.password, form.confirmPassword];
  if (required.some((value) => value.trim() === ""))
    return { ok: false, message: AUTH_MESSAGES.registerFieldsRequired };
  if (!passwordsMatch(form.password, form.confirmPassword))
    return { ok: false, message: AUTH_MESSAGES.passwordsDoNotMatch };
  const parsed = RegisterInput.safeParse({
    email: form.email,
    password: form.password,
    first_name: form.firstName,
    last_name: form.lastName,
    phone: form.phone.trim() || null,
    // A date input gives yyyy-mm-dd; the API takes an ISO timestamp or null.
    date_of_birth: form.dateOfBirth ? `${form.dateOfBirth}T00:00:00.000Z` : null,
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const tooShort = parsed.error.issues.find((issue) => issue.message === AUTH_MESSAGES.passwordTooShort);
  return { ok: false, message: tooShort?.message ?? firstIssue(parsed.error.issues) };
}

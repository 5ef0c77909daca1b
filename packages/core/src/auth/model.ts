import { z } from "zod";

/** Safe to import from the browser: schemas and messages shared by the API and the SPA. */

export const PASSWORD_MIN_LENGTH = 8;

export const AUTH_MESSAGES = {
  loginFieldsRequired: "Please fill in all fields",
  registerFieldsRequired: "Please fill in all required fields",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 8 characters long",
  invalidEmail: "Please enter a valid email address",
  invalidCredentials: "Invalid email or password",
  emailTaken: "An account with this email already exists",
  invalidDateOfBirth: "Date of birth must be a valid date in the past",
  invalidPhone: "Please enter a valid phone number",
} as const;

export const Role = z.enum(["user", "admin"]);
export type Role = z.infer<typeof Role>;

const requiredText = (message: string, max = 100) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`);

const email = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, AUTH_MESSAGES.invalidEmail)
    .pipe(z.email(AUTH_MESSAGES.invalidEmail))
    .transform((value) => value.toLowerCase());

const optionalPhone = z
  .string()
  .trim()
  .max(32, AUTH_MESSAGES.invalidPhone)
  .regex(/^[+()\-\s\d]*$/, AUTH_MESSAGES.invalidPhone)
  .nullish()
  .transform((value) => (value ? value : null));

const optionalDateOfBirth = z
  .string()
  .trim()
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const time = Date.parse(value);
    if (Number.isNaN(time) || time > Date.now() || time < Date.parse("1900-01-01")) {
      ctx.addIssue({ code: "custom", message: AUTH_MESSAGES.invalidDateOfBirth });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

export const RegisterInput = z.object({
  email: email(AUTH_MESSAGES.registerFieldsRequired),
  password: z
    .string({ error: AUTH_MESSAGES.registerFieldsRequired })
    .min(1, AUTH_MESSAGES.registerFieldsRequired)
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
    .max(256, "Password must be at most 256 characters long"),
  first_name: requiredText(AUTH_MESSAGES.registerFieldsRequired),
  last_name: requiredText(AUTH_MESSAGES.registerFieldsRequired),
  phone: optionalPhone,
  date_of_birth: optionalDateOfBirth,
});
export type RegisterInput = z.infer<typeof RegisterInput>;

export const LoginInput = z.object({
  email: email(AUTH_MESSAGES.loginFieldsRequired),
  password: z.string({ error: AUTH_MESSAGES.loginFieldsRequired }).min(1, AUTH_MESSAGES.loginFieldsRequired).max(256),
});
export type LoginInput = z.infer<typeof LoginInput>;

/** PUT /users/profile: every field optional; role can never be set here. */
export const ProfileUpdateInput = z
  .object({
    email: email(AUTH_MESSAGES.invalidEmail).optional(),
    first_name: requiredText("First name cannot be empty").optional(),
    last_name: requiredText("Last name cannot be empty").optional(),
    phone: optionalPhone.optional(),
    date_of_birth: optionalDateOfBirth.optional(),
  })
  .strict();
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateInput>;

/** The user as every API reply shows it (never the password hash). */
export const PublicUser = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: Role,
  phone: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const AuthReply = z.object({
  data: z.object({ token: z.string(), expires_at: z.string(), user: PublicUser }),
});
export type AuthReply = z.infer<typeof AuthReply>;

/** The registration form's client-side rule that the server never sees (confirm password). */
export function passwordsMatch(password: string, confirm: string): boolean {
  return password === confirm;
}

/* API keys: bearer credentials for scripts and servers, acting for their owner (never as admin). */

/** Every key starts with this, so a bearer value is told apart from a session token at a glance. */
export const API_KEY_PREFIX = "fpk_";
/** How much of a key stays visible in lists (the prefix plus the first characters of the secret). */
export const API_KEY_VISIBLE_LENGTH = 12;
export const MAX_ACTIVE_API_KEYS = 20;

export const CreateApiKeyInput = z.object({
  name: z.string({ error: "A name is required" }).trim().min(1, "A name is required").max(100, "Name must be at most 100 characters"),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

/** An API key as its owner sees it: everything but the secret. */
export const ApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, e.g. "fpk_3xQ9aB7c": enough to recognise it, not to use it. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

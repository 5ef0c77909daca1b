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
  currentPasswordRequired: "Enter your current password to change your sign-in email",
  currentPasswordWrong: "The current password is not correct",
  emailChangeRequested: "Check the new address for a confirmation link",
  emailConfirmationInvalid: "This confirmation link is invalid or has expired",
  emailChanged: "Your sign-in email has been changed",
  newPasswordRequired: "Enter a new password",
  newPasswordSameAsCurrent: "The new password must differ from the current one",
  passwordCurrentRequired: "Enter your current password to change it",
  passwordChanged: "Your password has been changed; your other sessions were signed out",
  passwordResetRequested: "If an account uses that address, we have sent it a link to reset the password",
  passwordResetInvalid: "This reset link is invalid or has expired",
  passwordReset: "Your password has been reset; sign in with the new one",
  emailVerificationInvalid: "This verification link is invalid or has expired",
  emailVerified: "Your email address is verified",
  emailAlreadyVerified: "Your email address is already verified",
  verificationSent: "We have sent a new verification link to your email address",
  sessionNotFound: "No such active session",
  otherSessionsEnded: "Your other sessions were signed out",
  sessionEnded: "The session was signed out",
} as const;

export const Role = z.enum(["user", "admin"]);
export type Role = z.infer<typeof Role>;

const requiredText = (message: string, max = 100) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

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

/** A password being chosen (sign-up, change, reset): the one rule, with the message of the form it is in. */
const newPassword = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
    .max(256, "Password must be at most 256 characters long");

export const RegisterInput = z.object({
  email: email(AUTH_MESSAGES.registerFieldsRequired),
  password: newPassword(AUTH_MESSAGES.registerFieldsRequired),
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

/**
 * PUT /users/profile: every field optional; role can never be set here. A new email takes the
 * current password, and only starts a change that a link sent to the new address completes.
 */
export const ProfileUpdateInput = z
  .object({
    email: email(AUTH_MESSAGES.invalidEmail).optional(),
    current_password: z
      .string({ error: AUTH_MESSAGES.currentPasswordRequired })
      .max(256, AUTH_MESSAGES.currentPasswordWrong)
      .optional(),
    first_name: requiredText("First name cannot be empty").optional(),
    last_name: requiredText("Last name cannot be empty").optional(),
    phone: optionalPhone.optional(),
    date_of_birth: optionalDateOfBirth.optional(),
  })
  .strict()
  .refine(
    (input) => input.email === undefined || (input.current_password !== undefined && input.current_password.length > 0),
    {
      message: AUTH_MESSAGES.currentPasswordRequired,
      path: ["current_password"],
    },
  );
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateInput>;

/** The secret of an email-change link: 32 random bytes, base64url. */
export const EMAIL_CHANGE_TOKEN_LENGTH = 43;

/** POST /users/email-confirmation: the token from the link sent to the new address. */
export const EmailConfirmationInput = z.object({
  token: z
    .string({ error: AUTH_MESSAGES.emailConfirmationInvalid })
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${EMAIL_CHANGE_TOKEN_LENGTH}}$`), AUTH_MESSAGES.emailConfirmationInvalid),
});
export type EmailConfirmationInput = z.infer<typeof EmailConfirmationInput>;

/** Where the link in the confirmation mail leads: the web app's page, which sends the token back. */
export const EMAIL_CONFIRMATION_PATH = "/confirm-email";

/**
 * The secret of a mailed one-time link (password reset, email verification): 32 random bytes,
 * base64url, like an email-change link's.
 */
export const ONE_TIME_TOKEN_LENGTH = EMAIL_CHANGE_TOKEN_LENGTH;
const oneTimeToken = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${ONE_TIME_TOKEN_LENGTH}}$`), message);

/** POST /auth/password: a signed-in user changes their password. */
export const PasswordChangeInput = z
  .object({
    current_password: z
      .string({ error: AUTH_MESSAGES.passwordCurrentRequired })
      .min(1, AUTH_MESSAGES.passwordCurrentRequired)
      .max(256, AUTH_MESSAGES.currentPasswordWrong),
    new_password: newPassword(AUTH_MESSAGES.newPasswordRequired),
  })
  .strict()
  .refine((input) => input.current_password !== input.new_password, {
    message: AUTH_MESSAGES.newPasswordSameAsCurrent,
    path: ["new_password"],
  });
export type PasswordChangeInput = z.infer<typeof PasswordChangeInput>;

/** POST /auth/password-reset/request: the address to send a reset link to (answered the same whatever it is). */
export const PasswordResetRequestInput = z.object({ email: email(AUTH_MESSAGES.invalidEmail) }).strict();
export type PasswordResetRequestInput = z.infer<typeof PasswordResetRequestInput>;

/** POST /auth/password-reset: the token from the reset link and the new password. */
export const PasswordResetInput = z
  .object({
    token: oneTimeToken(AUTH_MESSAGES.passwordResetInvalid),
    new_password: newPassword(AUTH_MESSAGES.newPasswordRequired),
  })
  .strict();
export type PasswordResetInput = z.infer<typeof PasswordResetInput>;

/** POST /users/email-verification: the token from the verification link. */
export const EmailVerificationInput = z.object({ token: oneTimeToken(AUTH_MESSAGES.emailVerificationInvalid) });
export type EmailVerificationInput = z.infer<typeof EmailVerificationInput>;

/** Where the links in the platform's account mail lead: web app pages that send the token back. */
export const PASSWORD_RESET_PATH = "/reset-password";
export const EMAIL_VERIFICATION_PATH = "/verify-email";

/** The token of a mailed link (`?token=...`), or null when it cannot be one: shared by the link pages. */
export function linkToken(search: string): string | null {
  const token = new URLSearchParams(search).get("token")?.trim() ?? "";
  return new RegExp(`^[A-Za-z0-9_-]{${ONE_TIME_TOKEN_LENGTH}}$`).test(token) ? token : null;
}

/** A signed-in session as its owner sees it in the sessions list. */
export const SessionView = z.object({
  id: z.string().describe("The session's id (not a credential): what DELETE /api/v1/auth/sessions/{id} takes"),
  current: z.boolean().describe("Whether this is the session making the request"),
  created_at: z.string(),
  last_seen_at: z.string().describe("The last request seen from it (updated at most every few minutes)"),
  expires_at: z.string(),
  device: z.string().describe('A coarse description from the browser\'s User-Agent, e.g. "Firefox on Linux"'),
});
export type SessionView = z.infer<typeof SessionView>;

/** The user as every API reply shows it (never the password hash). */
export const PublicUser = z.object({
  id: z.string(),
  email: z.string(),
  /** Whether the owner proved they read mail at `email` (a link sent to it was used). */
  email_verified: z.boolean(),
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

/**
 * What an API key may do, `<area>:read` or `<area>:write`, one area per section of the API's route
 * table that a key can reach (packages/functions/src/http/scopes.ts maps each request to the scope
 * it needs). Rails and the profile are read-only to keys: their writes are an administrator's or
 * need a signed-in session. No scope lets a key change the sign-in email, the password or keys.
 */
export const API_KEY_SCOPES = [
  "ledger:read",
  "ledger:write",
  "payments:read",
  "payments:write",
  "kyc:read",
  "kyc:write",
  "rails:read",
  "profile:read",
  "webhooks:read",
  "webhooks:write",
] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES, { error: `Unknown scope; scopes are ${API_KEY_SCOPES.join(", ")}` });
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** What each scope lets a key do, in the words the API-keys screen and the docs use. */
export const API_KEY_SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  "ledger:read": "Read accounts, balances, transactions and reports; watch the ledger stream",
  "ledger:write": "Open accounts, deposit, transfer, post and reverse transactions",
  "payments:read": "Read payments; watch the payment stream",
  "payments:write": "Create and send payments",
  "kyc:read": "Read the verification status and countries; watch the KYC stream",
  "kyc:write": "Start a verification, submit identity numbers and documents",
  "rails:read": "Read payment rails, their metrics and routing quotes",
  "profile:read": "Read the signed-in user's profile",
  "webhooks:read": "Read webhook endpoints, their event types and delivery logs",
  "webhooks:write": "Register, change, rotate and delete webhook endpoints; replay deliveries and send test events",
};

/**
 * The scopes of a key created without a list, and of a key whose item stores none (an older
 * key): every scope, so such a key keeps all it could ever use. The account changes (email,
 * password, keys) stay out of any key's reach.
 */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES;

/** The scopes as given, each once, in the catalogue's order. */
export const normaliseScopes = (scopes: readonly string[]): ApiKeyScope[] =>
  API_KEY_SCOPES.filter((scope) => scopes.includes(scope));

export const CreateApiKeyInput = z.object({
  name: z
    .string({ error: "A name is required" })
    .trim()
    .min(1, "A name is required")
    .max(100, "Name must be at most 100 characters"),
  scopes: z
    .array(ApiKeyScope, { error: "scopes must be a list of scopes" })
    .min(1, "Choose at least one scope")
    .max(API_KEY_SCOPES.length * 2, `scopes may list at most ${API_KEY_SCOPES.length * 2} values`)
    .transform(normaliseScopes)
    .optional()
    .describe(`What the key may do (default: every scope). One or more of ${API_KEY_SCOPES.join(", ")}`),
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
  /** What the key may do (see API_KEY_SCOPES). */
  scopes: z.array(ApiKeyScope),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

import { createRoute, z } from "@hono/zod-openapi";
import {
  AUTH_MESSAGES,
  LoginInput,
  PasswordChangeInput,
  PasswordResetInput,
  PasswordResetRequestInput,
  RegisterInput,
  SessionView,
} from "@fintech/core/auth/model";
import { requireAuth, sessionOnly } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, publicAccess, TAGS } from "../http/openapi";
import { SessionReply, sessionExample, StreamTicketReply } from "../http/reply-schemas";

/**
 * The OpenAPI declarations of the sign-in and session routes (auth.ts): what the document says of
 * each route (path, parameters, replies, examples). The handlers are there, registered in the
 * order the document lists them.
 */

const MessageReply = z.object({ message: z.string() });
const SessionListReply = z.object({ data: z.array(SessionView) });
const sessionViewExample = {
  id: "3.5b3f2c1e-8d4a-4f6b-9c2d-1e0f3a4b5c6d",
  current: true,
  created_at: "2026-01-15T09:00:00.000Z",
  last_seen_at: "2026-01-15T09:30:00.000Z",
  expires_at: "2026-01-16T09:00:00.000Z",
  device: "Firefox on Linux",
};
const KEYS_CANNOT = "Needs a signed-in session: an API key is refused (403 `session_required`).";

export const registerRoute = createRoute({
  method: "post",
  path: "/register",
  operationId: "register",
  summary: "Create a user account",
  description:
    "Registers a user and signs them in: the reply carries a session token. Attempts are rate limited per address and per email (valid or not).",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: {
    body: jsonBody("RegisterInput", RegisterInput, {
      email: "ada@example.com",
      password: "correct-horse-battery",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "+44 20 7946 0958",
      date_of_birth: "1990-12-10",
    }),
  },
  responses: {
    201: jsonReply("Registered and signed in", "SessionReply", SessionReply, sessionExample("Registration successful")),
    ...errors({
      400: ["validation_error", "invalid_json"],
      409: ["email_taken"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

export const loginRoute = createRoute({
  method: "post",
  path: "/login",
  operationId: "login",
  summary: "Sign in",
  description:
    "Exchanges email and password for a session token. Attempts are rate limited per address and per email; a wrong email or password is the same 401.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: {
    body: jsonBody("LoginInput", LoginInput, { email: "ada@example.com", password: "correct-horse-battery" }),
  },
  responses: {
    200: jsonReply("Signed in", "SessionReply", SessionReply, sessionExample("Login successful")),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: ["invalid_credentials"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

export const streamTicketRoute = createRoute({
  method: "post",
  path: "/stream-ticket",
  operationId: "createStreamTicket",
  summary: "Get a stream ticket",
  description:
    "A short-lived ticket that opens server-sent event streams from a browser (EventSource cannot send an Authorization header, and a session token never goes in a URL). Not accepted as a bearer token.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth] as const,
  responses: {
    201: jsonReply("The ticket", "StreamTicketReply", StreamTicketReply, {
      ticket: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI2ZjFjIn0.dGlja2V0",
      expires_at: "2026-01-15T09:31:00.000Z",
      expires_in: 60,
    }),
    ...errors({ 401: true, 503: true }),
  },
});

export const LogoutInput = z.object({
  everywhere: z
    .boolean({ error: "everywhere must be true or false" })
    .optional()
    .describe("Also end every other session of the user (all devices)"),
});

const LogoutReply = z.object({ message: z.string() });

export const logoutRoute = createRoute({
  method: "post",
  path: "/logout",
  operationId: "logout",
  summary: "Sign out",
  description:
    "Ends the session of the bearer token on the server: from then on the token, and any stream ticket or open stream issued from it, is refused with 401. With `everywhere: true`, every session of the user ends. The body is optional. Needs a session token: an API key is revoked instead (403 `session_required`).",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth, sessionOnly("API keys cannot sign out: revoke the key instead")] as const,
  request: { body: { ...jsonBody("LogoutInput", LogoutInput, { everywhere: false }), required: false } },
  responses: {
    200: jsonReply("Signed out", "LogoutReply", LogoutReply, { message: "Signed out" }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["session_required"],
      409: ["concurrent_update"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const changePasswordRoute = createRoute({
  method: "post",
  path: "/password",
  operationId: "changePassword",
  summary: "Change the password",
  description: `Sets a new password; the current one is required (403 \`invalid_current_password\`). Every other session of the user ends; this one continues with the new token in the reply (the old token stops working). The address is told by mail. Attempts count against the same limits as sign-in (429 with Retry-After). ${KEYS_CANNOT}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  middleware: [requireAuth, sessionOnly("API keys cannot change the password: sign in")] as const,
  request: {
    body: jsonBody("PasswordChangeInput", PasswordChangeInput, {
      current_password: "correct-horse-battery",
      new_password: "staple-lantern-orbit",
    }),
  },
  responses: {
    200: jsonReply(
      "Changed; the reply carries this session's new token",
      "SessionReply",
      SessionReply,
      sessionExample(AUTH_MESSAGES.passwordChanged),
    ),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["invalid_current_password", "session_required"],
      409: ["concurrent_update"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

export const requestResetRoute = createRoute({
  method: "post",
  path: "/password-reset/request",
  operationId: "requestPasswordReset",
  summary: "Ask for a password reset link",
  description:
    "Mails a link to reset the password to the address, if an account signs in with it; otherwise the address is told that none does. The reply is the same 202 either way, so it does not tell who is registered. At most 10 requests per client address per 15 minutes and 3 per email address per hour (429 with Retry-After). The link works once, for 30 minutes.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: { body: jsonBody("PasswordResetRequestInput", PasswordResetRequestInput, { email: "ada@example.com" }) },
  responses: {
    202: jsonReply("Accepted (whatever the address)", "MessageReply", MessageReply, {
      message: AUTH_MESSAGES.passwordResetRequested,
    }),
    ...errors({ 400: ["validation_error", "invalid_json"], 413: ["payload_too_large"], 429: true, 503: true }),
  },
});

export const resetPasswordRoute = createRoute({
  method: "post",
  path: "/password-reset",
  operationId: "resetPassword",
  summary: "Set a new password from a reset link",
  description:
    "Sets the new password with the token from the reset link (the web app's /reset-password page sends it). Every session of the account ends; sign in with the new password. The link works once, for 30 minutes, and only while the account signs in with the address it was sent to (400 `invalid_reset_link` otherwise). Needs no sign-in: the token is the proof. At most 30 attempts per client address per minute.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: {
    body: jsonBody("PasswordResetInput", PasswordResetInput, {
      token: "Jq3x9aB7cK2mN8pR4sT6vW1yZ5bD7fH9jLm0nP2qR4s",
      new_password: "staple-lantern-orbit",
    }),
  },
  responses: {
    200: jsonReply("The password is reset", "MessageReply", MessageReply, { message: AUTH_MESSAGES.passwordReset }),
    ...errors({
      400: ["invalid_reset_link", "validation_error", "invalid_json"],
      409: ["concurrent_update"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

export const listSessionsRoute = createRoute({
  method: "get",
  path: "/sessions",
  operationId: "listSessions",
  summary: "The signed-in user's sessions",
  description: `Sessions that are still on, the current one first (\`current: true\`), each with when it started, when it was last seen and a coarse device. ${KEYS_CANNOT}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth, sessionOnly("API keys cannot list sessions: sign in")] as const,
  responses: {
    200: jsonReply("The sessions", "SessionListReply", SessionListReply, { data: [sessionViewExample] }),
    ...errors({ 401: true, 403: ["session_required"], 503: true }),
  },
});

export const endSessionRoute = createRoute({
  method: "delete",
  path: "/sessions/{id}",
  operationId: "endSession",
  summary: "Sign out one session",
  description: `Ends one of the user's own sessions (from the list): its token is refused from then on. Any other id, or a session already over, is 404 \`session_not_found\`. ${KEYS_CANNOT}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth, sessionOnly("API keys cannot sign out sessions: sign in")] as const,
  parameters: [pathParameter("id", "The session's id (from the list)", sessionViewExample.id)],
  responses: {
    200: jsonReply("Signed out", "MessageReply", MessageReply, { message: AUTH_MESSAGES.sessionEnded }),
    ...errors({
      401: true,
      403: ["session_required"],
      404: ["session_not_found"],
      409: ["concurrent_update"],
      429: true,
      503: true,
    }),
  },
});

export const endOtherSessionsRoute = createRoute({
  method: "post",
  path: "/sessions/end-others",
  operationId: "endOtherSessions",
  summary: "Sign out all other sessions",
  description: `Ends every session of the user but this one, which continues with the new token in the reply (the old token stops working). ${KEYS_CANNOT}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth, sessionOnly("API keys cannot sign out sessions: sign in")] as const,
  responses: {
    200: jsonReply(
      "Signed out elsewhere; the reply carries this session's new token",
      "SessionReply",
      SessionReply,
      sessionExample(AUTH_MESSAGES.otherSessionsEnded),
    ),
    ...errors({ 401: true, 403: ["session_required"], 409: ["concurrent_update"], 429: true, 503: true }),
  },
});

import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  AUTH_MESSAGES,
  LoginInput,
  PasswordChangeInput,
  PasswordResetInput,
  PasswordResetRequestInput,
  RegisterInput,
  SessionView,
} from "@fintech/core/auth/model";
import {
  changePasswordAndContinue,
  endOtherSessions,
  endSession,
  limitAccountChange,
  limitAuthAttempt,
  login,
  register,
  rememberSignInAddress,
  requestPasswordReset,
  resetPassword,
  sessionsOf,
  type CurrentSession,
  type SessionOrigin,
} from "@fintech/core/auth/service";
import { SessionId } from "@fintech/core/auth/token";
import { notFound } from "@fintech/core/shared/errors";
import { signOutSession } from "@fintech/core/auth/sessions";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { isAppError } from "@fintech/core/shared/errors";
import { requireAuth, sessionOnly } from "../http/middleware";
import type { AppEnv } from "../http/env";
import { clientIp } from "../http/client-ip";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, publicAccess, TAGS } from "../http/openapi";
import { SessionReply, sessionExample, StreamTicketReply } from "../http/reply-schemas";
import { jsonBody as readBody, parseJsonText, parseWith } from "../http/validate";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The rate limit counts every attempt, valid or not, so it is applied before validation; a
 * body that is not JSON is counted against the address alone, then refused.
 */
async function readAttempt(c: Context<AppEnv>, action: "login" | "register"): Promise<unknown> {
  let body: unknown;
  let malformed: unknown = null;
  try {
    body = parseJsonText(await c.req.text());
  } catch (error) {
    if (!isAppError(error)) throw error;
    malformed = error;
  }
  const email = isRecord(body) && typeof body.email === "string" && body.email.trim() ? body.email : null;
  await limitAuthAttempt(c.get("core"), action, clientIp(c), email);
  if (malformed) throw malformed;
  return body;
}

/** A reply that carries a session token must never be kept by a browser or a proxy cache. */
const noStore = (c: Context<AppEnv>) => c.header("Cache-Control", "no-store");

/** What the sessions list says about where a session was started. */
const originOf = (c: Context<AppEnv>): SessionOrigin => ({ userAgent: c.req.header("user-agent") ?? null });

/** The signed-in session making the request (sessionOnly has let only sessions through). */
function currentSession(c: Context<AppEnv>): CurrentSession {
  const auth = c.get("auth");
  if (auth.credential.kind !== "session" || auth.sessionExpiresAt === undefined)
    throw new Error("sessionOnly let a non-session through");
  return { userId: auth.userId, sessionId: auth.credential.sessionId, expiresAt: auth.sessionExpiresAt };
}

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

const registerRoute = createRoute({
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

const loginRoute = createRoute({
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

const streamTicketRoute = createRoute({
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

const LogoutInput = z.object({
  everywhere: z
    .boolean({ error: "everywhere must be true or false" })
    .optional()
    .describe("Also end every other session of the user (all devices)"),
});

const LogoutReply = z.object({ message: z.string() });

const logoutRoute = createRoute({
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

const changePasswordRoute = createRoute({
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

const requestResetRoute = createRoute({
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

const resetPasswordRoute = createRoute({
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

const listSessionsRoute = createRoute({
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

const endSessionRoute = createRoute({
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

const endOtherSessionsRoute = createRoute({
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

export const authRoutes = new OpenAPIHono<AppEnv>()
  .openapi(registerRoute, async (c) => {
    noStore(c);
    const input = parseWith(RegisterInput, await readAttempt(c, "register"));
    const session = await register(c.get("core"), input, "user", originOf(c));
    await rememberSignInAddress(c.get("core"), clientIp(c), input.email);
    return c.json({ message: "Registration successful", data: session }, 201);
  })
  .openapi(loginRoute, async (c) => {
    noStore(c);
    const input = parseWith(LoginInput, await readAttempt(c, "login"));
    const session = await login(c.get("core"), input, originOf(c));
    await rememberSignInAddress(c.get("core"), clientIp(c), input.email);
    return c.json({ message: "Login successful", data: session }, 200);
  })
  // A short-lived ticket that opens SSE streams from a browser (see auth/stream-ticket.ts).
  .openapi(streamTicketRoute, async (c) => {
    const auth = c.get("auth");
    return c.json(await issueStreamTicket(c.get("core"), { id: auth.userId, role: auth.role }, auth.credential), 201);
  })
  .openapi(logoutRoute, async (c) => {
    const text = await c.req.text();
    const input = parseWith(LogoutInput, text.trim() ? parseJsonText(text) : {});
    const auth = c.get("auth");
    if (auth.credential.kind !== "session" || auth.sessionExpiresAt === undefined)
      throw new Error("sessionOnly let a non-session through");
    await signOutSession(c.get("core"), {
      userId: auth.userId,
      sessionId: auth.credential.sessionId,
      expiresAt: auth.sessionExpiresAt,
      everywhere: input.everywhere ?? false,
    });
    return c.json({ message: "Signed out" }, 200);
  })
  // Counted against the sign-in limits (per address and per email) before the body is judged: the
  // current password is guessed here no faster than at the sign-in form.
  .openapi(changePasswordRoute, async (c) => {
    noStore(c);
    const core = c.get("core");
    await limitAuthAttempt(core, "login", clientIp(c), c.get("auth").user.email);
    const input = await readBody(c, PasswordChangeInput);
    const session = await changePasswordAndContinue(core, currentSession(c), input, originOf(c));
    return c.json({ message: AUTH_MESSAGES.passwordChanged, data: session }, 200);
  })
  .openapi(requestResetRoute, async (c) => {
    const core = c.get("core");
    const { email } = await readBody(c, PasswordResetRequestInput);
    await requestPasswordReset(core, email, clientIp(c));
    return c.json({ message: AUTH_MESSAGES.passwordResetRequested }, 202);
  })
  .openapi(resetPasswordRoute, async (c) => {
    const core = c.get("core");
    await limitAccountChange(core, "linkRedemption", clientIp(c));
    const { token, new_password: newPassword } = await readBody(c, PasswordResetInput);
    await resetPassword(core, token, newPassword);
    return c.json({ message: AUTH_MESSAGES.passwordReset }, 200);
  })
  .openapi(listSessionsRoute, async (c) => {
    const auth = c.get("auth");
    const current = auth.credential.kind === "session" ? auth.credential.sessionId : null;
    return c.json({ data: await sessionsOf(c.get("core"), auth.userId, current) }, 200);
  })
  .openapi(endSessionRoute, async (c) => {
    const id = SessionId.safeParse(c.req.param("id"));
    if (!id.success) throw notFound(AUTH_MESSAGES.sessionNotFound, "session_not_found");
    await endSession(c.get("core"), c.get("auth").userId, id.data);
    return c.json({ message: AUTH_MESSAGES.sessionEnded }, 200);
  })
  .openapi(endOtherSessionsRoute, async (c) => {
    noStore(c);
    const session = await endOtherSessions(c.get("core"), currentSession(c), originOf(c));
    return c.json({ message: AUTH_MESSAGES.otherSessionsEnded, data: session }, 200);
  });

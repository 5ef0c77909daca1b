import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  AUTH_MESSAGES,
  LoginInput,
  PasswordChangeInput,
  PasswordResetInput,
  PasswordResetRequestInput,
  RegisterInput,
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
import type { AppEnv } from "../http/app-context";
import { clientIp } from "../http/client-ip";
import { jsonBody as readBody, parseJsonText, parseWith } from "../http/validate";
import {
  changePasswordRoute,
  endOtherSessionsRoute,
  endSessionRoute,
  listSessionsRoute,
  loginRoute,
  LogoutInput,
  logoutRoute,
  registerRoute,
  requestResetRoute,
  resetPasswordRoute,
  streamTicketRoute,
} from "./auth.openapi";

/**
 * Registration, sign-in, stream tickets, sign-out, passwords and sessions, mounted at
 * /api/v1/auth. What the OpenAPI document says of each route is in auth.openapi.ts.
 */

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

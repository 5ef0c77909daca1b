import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { LoginInput, RegisterInput } from "@fintech/core/auth/model";
import { limitAuthAttempt, login, register, rememberSignInAddress } from "@fintech/core/auth/service";
import { signOutSession } from "@fintech/core/auth/sessions";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { isAppError } from "@fintech/core/shared/errors";
import { requireAuth, sessionOnly } from "../http/middleware";
import type { AppEnv } from "../http/env";
import { clientIp } from "../http/client-ip";
import { authenticated, errors, jsonBody, jsonReply, publicAccess, TAGS } from "../http/openapi";
import { SessionReply, sessionExample, StreamTicketReply } from "../http/reply-schemas";
import { parseJsonText, parseWith } from "../http/validate";

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

const registerRoute = createRoute({
  method: "post",
  path: "/register",
  operationId: "register",
  summary: "Create a user account",
  description: "Registers a user and signs them in: the reply carries a session token. Attempts are rate limited per address and per email (valid or not).",
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
    ...errors({ 400: ["validation_error", "invalid_json"], 409: ["email_taken"], 413: ["payload_too_large"], 429: true, 503: true }),
  },
});

const loginRoute = createRoute({
  method: "post",
  path: "/login",
  operationId: "login",
  summary: "Sign in",
  description: "Exchanges email and password for a session token. Attempts are rate limited per address and per email; a wrong email or password is the same 401.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: { body: jsonBody("LoginInput", LoginInput, { email: "ada@example.com", password: "correct-horse-battery" }) },
  responses: {
    200: jsonReply("Signed in", "SessionReply", SessionReply, sessionExample("Login successful")),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: ["invalid_credentials"], 413: ["payload_too_large"], 429: true, 503: true }),
  },
});

const streamTicketRoute = createRoute({
  method: "post",
  path: "/stream-ticket",
  operationId: "createStreamTicket",
  summary: "Get a stream ticket",
  description: "A short-lived ticket that opens server-sent event streams from a browser (EventSource cannot send an Authorization header, and a session token never goes in a URL). Not accepted as a bearer token.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth] as const,
  responses: {
    201: jsonReply("The ticket", "StreamTicketReply", StreamTicketReply, { ticket: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI2ZjFjIn0.dGlja2V0", expires_at: "2026-01-15T09:31:00.000Z", expires_in: 60 }),
    ...errors({ 401: true, 503: true }),
  },
});

const LogoutInput = z.object({
  everywhere: z.boolean({ error: "everywhere must be true or false" }).optional().describe("Also end every other session of the user (all devices)"),
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
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 403: ["session_required"], 409: ["concurrent_update"], 413: ["payload_too_large"], 503: true }),
  },
});

export const authRoutes = new OpenAPIHono<AppEnv>()
  .openapi(registerRoute, async (c) => {
    noStore(c);
    const input = parseWith(RegisterInput, await readAttempt(c, "register"));
    const session = await register(c.get("core"), input);
    await rememberSignInAddress(c.get("core"), clientIp(c), input.email);
    return c.json({ message: "Registration successful", data: session }, 201);
  })
  .openapi(loginRoute, async (c) => {
    noStore(c);
    const input = parseWith(LoginInput, await readAttempt(c, "login"));
    const session = await login(c.get("core"), input);
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
    if (auth.credential.kind !== "session" || auth.sessionExpiresAt === undefined) throw new Error("sessionOnly let a non-session through");
    await signOutSession(c.get("core"), {
      userId: auth.userId,
      sessionId: auth.credential.sessionId,
      expiresAt: auth.sessionExpiresAt,
      everywhere: input.everywhere ?? false,
    });
    return c.json({ message: "Signed out" }, 200);
  });

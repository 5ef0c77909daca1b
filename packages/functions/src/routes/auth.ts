import { Hono, type Context } from "hono";
import { LoginInput, RegisterInput } from "@fintech/core/auth/model";
import { limitAuthAttempt, login, register, rememberSignInAddress } from "@fintech/core/auth/service";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { isAppError } from "@fintech/core/shared/errors";
import { requireAuth } from "../http/middleware";
import type { AppEnv } from "../http/env";
import { clientIp } from "../http/client-ip";
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

export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) => {
    const input = parseWith(RegisterInput, await readAttempt(c, "register"));
    const session = await register(c.get("core"), input);
    await rememberSignInAddress(c.get("core"), clientIp(c), input.email);
    return c.json({ message: "Registration successful", data: session }, 201);
  })
  .post("/login", async (c) => {
    const input = parseWith(LoginInput, await readAttempt(c, "login"));
    const session = await login(c.get("core"), input);
    await rememberSignInAddress(c.get("core"), clientIp(c), input.email);
    return c.json({ message: "Login successful", data: session }, 200);
  })
  // A short-lived ticket that opens SSE streams from a browser (see auth/stream-ticket.ts).
  .post("/stream-ticket", requireAuth, async (c) => {
    const auth = c.get("auth");
    return c.json(await issueStreamTicket(c.get("core"), { id: auth.userId, role: auth.role }), 201);
  });

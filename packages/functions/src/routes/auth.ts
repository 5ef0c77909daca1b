import { Hono, type Context } from "hono";
import { LoginInput, RegisterInput } from "@fintech/core/auth/model";
import { limitAuthAttempt, login, register } from "@fintech/core/auth/service";
import { badRequest } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/env";
import { clientIp } from "../http/client-ip";
import { parseWith } from "../http/validate";

/** The rate limit counts every attempt, valid or not, so it is applied before validation. */
async function readAttempt(c: Context<AppEnv>, action: "login" | "register") {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  const email = typeof body === "object" && body !== null && typeof (body as { email?: unknown }).email === "string"
    ? ((body as { email: string }).email.trim() || null)
    : null;
  await limitAuthAttempt(c.get("core"), action, clientIp(c), email);
  if (body === undefined) throw badRequest("Request body must be valid JSON", "invalid_json");
  return body;
}

export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) => {
    const input = parseWith(RegisterInput, await readAttempt(c, "register"));
    const session = await register(c.get("core"), input);
    return c.json({ message: "Registration successful", data: session }, 201);
  })
  .post("/login", async (c) => {
    const input = parseWith(LoginInput, await readAttempt(c, "login"));
    const session = await login(c.get("core"), input);
    return c.json({ message: "Login successful", data: session }, 200);
  });

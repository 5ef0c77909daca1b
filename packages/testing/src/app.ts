/** The HTTP app over a test context (context.ts), with helpers for JSON calls and sign-ups. */
import { createApp } from "@fintech/functions/app";
import { verifyEmailForTests } from "./auth";
import { createTestContext, type TestContextOptions } from "./context";

/**
 * The env the Node server gives the app for a request from `ip`: the socket's peer, which is
 * where the app takes the client address from locally (never from X-Forwarded-For).
 */
export const fromAddress = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

let addressesHandedOut = 0;
/**
 * A fresh address from the benchmarking range 198.18.0.0/15 for every call, so no two sign-ups
 * share a rate-limit window.
 */
export function nextTestAddress(): string {
  addressesHandedOut += 1;
  return `198.${18 + (addressesHandedOut >> 16)}.${(addressesHandedOut >> 8) & 255}.${addressesHandedOut & 255}`;
}

/** The Hono app over a fresh table, plus small helpers for JSON calls. */
export async function createTestApp(env: Record<string, string> = {}, options: TestContextOptions = {}) {
  const core = await createTestContext(env, options);
  const app = createApp(core);
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string>; ip?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const response = await app.request(
      path,
      {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : typeof options.body === "string"
              ? options.body
              : JSON.stringify(options.body),
      },
      options.ip ? fromAddress(options.ip) : undefined,
    );
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, body: json as Record<string, any> };
  };
  /** Registers a user from its own address (so no test shares a rate-limit window); returns its session. */
  const signUp = async (email: string, names: { first_name?: string; last_name?: string } = {}) => {
    const reply = await call("POST", "/api/v1/auth/register", {
      body: { email, password: "long enough pw", first_name: "Test", last_name: "User", ...names },
      ip: nextTestAddress(),
    });
    if (reply.status !== 201)
      throw new Error(`Registering ${email} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    // As if the sign-up mail's link was used: test users can be paid by email.
    await verifyEmailForTests(core, reply.body.data.user.id as string);
    return reply.body.data as {
      token: string;
      user: { id: string; email: string; first_name: string; last_name: string };
    };
  };
  return { core, app, call, signUp };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** Two USD accounts of the token's user (Everyday, Savings), with `amount` posted into the first. */
export async function fundedAccountPair(
  t: TestApp,
  token: string,
  amount = "500.00",
): Promise<{ from: string; to: string }> {
  const expectStatus = (reply: { status: number; body: unknown }, status: number, what: string) => {
    if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  };
  const account = async (name: string) => {
    const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency: "USD" } });
    expectStatus(reply, 201, `opening ${name}`);
    return reply.body.data.id as string;
  };
  const from = await account("Everyday");
  const to = await account("Savings");
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: from, amount },
  });
  expectStatus(deposit, 201, "the deposit");
  const posted = await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token });
  expectStatus(posted, 200, "posting the deposit");
  return { from, to };
}

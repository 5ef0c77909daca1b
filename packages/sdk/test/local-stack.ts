import type { Server } from "node:http";
import { createApp } from "@fintech/functions/app";
import { closeServer, createLocalHost, listen } from "../../../infra/local/server";
import { createTestContext } from "@fintech/testing/context";
import { createFintechClient, type FetchFunction, type FintechClient, type FintechClientOptions } from "../src";

/**
 * The real app on a real HTTP port over a fresh DynamoDB Local table, and SDK clients for it.
 * Backoff waits are recorded, not slept, so retries cost no wall-clock time.
 */
export interface LocalApi {
  baseUrl: string;
  /** Every wait the SDK asked for (ms), in order. */
  waits: number[];
  client(options?: Partial<FintechClientOptions>): FintechClient;
  stop(): Promise<void>;
}

export async function startLocalApi(env: Record<string, string> = {}): Promise<LocalApi> {
  const core = await createTestContext(env);
  const server: Server = await listen(createLocalHost(createApp(core), null), 0);
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  const waits: number[] = [];
  return {
    baseUrl,
    waits,
    client: (options = {}) =>
      createFintechClient({
        baseUrl,
        ...options,
        backoff: { sleep: async (ms) => void waits.push(ms), ...options.backoff },
      } as FintechClientOptions),
    async stop() {
      await closeServer(server);
      await core.dispose();
    },
  };
}

let registered = 0;

/** A new user (through the SDK), an API key made from its session, and a client for each credential. */
export async function newDeveloper(api: LocalApi, fetch?: FetchFunction) {
  registered += 1;
  const email = `sdk-${registered}-${Date.now()}@example.com`;
  const { data: session } = await api.client().api.POST("/api/v1/auth/register", {
    body: { email, password: "long enough pw", first_name: "Sdk", last_name: "Tester" },
  });
  const token = session.data.token;
  const signedIn = api.client({ token });
  const { data: created } = await signedIn.api.POST("/api/v1/api-keys", { body: { name: "SDK test" } });
  return {
    userId: session.data.user.id,
    token,
    signedIn,
    apiKey: created.data.key,
    apiKeyId: created.data.id,
    keyed: api.client({ apiKey: created.data.key, ...(fetch ? { fetch } : {}) }),
  };
}

/** Two USD accounts, the first holding 500.00 posted: ready for transfers. */
export async function fundedAccounts(client: FintechClient) {
  const open = async (name: string) =>
    (await client.api.POST("/api/v1/ledger/accounts", { body: { name, currency: "USD", type: "bank" } })).data.data;
  const from = await open("Operating");
  const to = await open("Payroll");
  const { data: deposit } = await client.api.POST("/api/v1/ledger/transactions/deposit", {
    body: { account_id: from.id, amount: "500.00", currency: "USD", description: "Funding" },
  });
  await client.api.POST("/api/v1/ledger/transactions/{id}/post", { params: { path: { id: deposit.data.id } } });
  return { from, to };
}

/** Fetch wrapper building blocks for tests: run `before` on each request, then the real fetch. */
export function interceptFetch(
  handle: (request: Request, forward: (request: Request) => Promise<Response>) => Promise<Response>,
): FetchFunction {
  const forward = (request: Request) => globalThis.fetch(request);
  return (request) => handle(request, forward);
}

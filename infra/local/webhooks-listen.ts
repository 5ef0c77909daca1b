import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from "@fintech/core/webhooks/model";
import { REPO_ROOT } from "./cli";
import { LOOPBACK } from "./ports";
import { LOCAL_ENDPOINTS_FILE } from "./stack";

/**
 * `npm run webhooks:listen -- [--port 4243] [--events payment.*,ledger.*] [--forward-to URL]`
 * (docs/webhooks.md#receiving-webhooks-locally), as `stripe listen` does for Stripe: a receiver on
 * 127.0.0.1 registered as a webhook endpoint of the signed-in user on the running local stack.
 * Every delivery is verified with the Standard Webhooks library and printed on one line (time,
 * webhook-id, type, verified or REJECTED); a verified one is answered 200, or forwarded to
 * --forward-to and its answer relayed. Ctrl-C deletes the endpoint. An endpoint left by a run that
 * was killed (same URL, this tool's description) is reused: its secret is rotated to learn a new one.
 */

export const LISTEN_DESCRIPTION = "npm run webhooks:listen";
export const DEFAULT_LISTEN_PORT = 4243;
/** A delivery larger than this is refused unread (a real one is a few KB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** How long a forwarded request may take (the platform gives a receiver 15 s in all). */
const FORWARD_TIMEOUT_MS = 10_000;

const USAGE = `Usage: npm run webhooks:listen -- [options]

Receives the signed-in user's webhooks from the local stack on 127.0.0.1 and prints each delivery.

Options:
  --port <n>           port of the receiver on 127.0.0.1 (default ${DEFAULT_LISTEN_PORT}; 0 picks a free one)
  --events <list>      event types to subscribe to, comma-separated; "payment.*" takes a whole feed
                       (default: every type)
  --forward-to <url>   forward each verified delivery to this URL and relay its answer
  --api <url>          the API (default: FINTECH_API_URL, else the running \`npm start\` stack)
  --email <address>    sign in with this email and --password ...
  --password <text>    ... (or FINTECH_PASSWORD)
  -h, --help           this text

Credentials: an API key with the webhooks:write scope in FINTECH_API_KEY (fpk_...), or else
--email and --password (FINTECH_PASSWORD) to sign in as that user.`;

export class UsageError extends Error {}

/** Expands `payment.*`-style entries to event types; refuses an entry that names none. */
export function eventTypesOf(list: string | undefined): EventType[] {
  if (!list || list.trim() === "" || list.trim() === "*") return [...EVENT_TYPES];
  const chosen = new Set<EventType>();
  for (const entry of list.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    const matching = entry.endsWith(".*")
      ? EVENT_TYPES.filter((type) => type.startsWith(entry.slice(0, -1)))
      : EVENT_TYPES.filter((type) => type === entry);
    if (matching.length === 0) {
      throw new UsageError(`Unknown event type '${entry.slice(0, 80)}'. Known: ${EVENT_TYPES.join(", ")}`);
    }
    for (const type of matching) chosen.add(type);
  }
  return [...chosen];
}

/** The API of the running `npm start` stack, from the endpoints file it writes beside its data. */
export function localApiUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.FINTECH_API_URL) return env.FINTECH_API_URL;
  const file = path.join(path.resolve(REPO_ROOT, env.DATA_DIR ?? ".data"), LOCAL_ENDPOINTS_FILE);
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, "utf8")) as { url?: string }).url ?? null;
}

export interface ListenOptions {
  api: string;
  /** A session token or an API key (fpk_...), sent as the bearer. */
  bearer: string;
  port: number;
  eventTypes: EventType[];
  forwardTo: string | null;
  /** Where the lines go (the console by default). */
  print?: (line: string) => void;
}

export interface Listener {
  /** The receiver's URL, registered as the endpoint. */
  url: string;
  endpoint: WebhookEndpoint;
  secret: string;
  /** Deletes the endpoint and closes the receiver. */
  stop(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function callApi<T>(api: string, bearer: string | null, method: string, route: string, body?: unknown) {
  const response = await fetch(new URL(route, api), {
    method,
    headers: {
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new ApiError(response.status, `${method} ${route}: ${response.status} ${String(json.message ?? text)}`);
  }
  return json as T;
}

/** Signs in with email and password; the session token is the bearer. */
export async function signIn(api: string, email: string, password: string): Promise<string> {
  const reply = await callApi<{ data: { token: string } }>(api, null, "POST", "/api/v1/auth/login", {
    email,
    password,
  });
  return reply.data.token;
}

const ENDPOINTS = "/api/v1/webhooks/endpoints";

/** Registers (or takes back) the endpoint for `url` and learns its secret. */
async function registerEndpoint(
  options: ListenOptions,
  url: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { api, bearer, eventTypes } = options;
  const existing = (await callApi<{ data: WebhookEndpoint[] }>(api, bearer, "GET", ENDPOINTS)).data.find(
    (endpoint) => endpoint.url === url && endpoint.description === LISTEN_DESCRIPTION,
  );
  if (!existing) {
    const created = await callApi<{ data: { endpoint: WebhookEndpoint; secret: string } }>(
      api,
      bearer,
      "POST",
      ENDPOINTS,
      { url, description: LISTEN_DESCRIPTION, event_types: eventTypes, enabled: true },
    );
    return created.data;
  }
  await callApi(api, bearer, "PATCH", `${ENDPOINTS}/${existing.id}`, { event_types: eventTypes, enabled: true });
  const rotated = await callApi<{ data: { endpoint: WebhookEndpoint; secret: string } }>(
    api,
    bearer,
    "POST",
    `${ENDPOINTS}/${existing.id}/rotate-secret`,
  );
  return rotated.data;
}

const headerText = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

function readBody(request: import("node:http").IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** Starts the receiver, registers it and resolves once deliveries can arrive. */
export async function startWebhookListener(options: ListenOptions): Promise<Listener> {
  const print = options.print ?? ((line: string) => console.log(line));
  let verifier: Webhook | null = null;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const answer = (status: number, body: string, type = "text/plain") => {
        response.writeHead(status, { "content-type": type });
        response.end(body);
      };
      if (request.method !== "POST") return answer(405, "POST only");
      const body = await readBody(request);
      const time = new Date().toISOString().slice(11, 23);
      const id = headerText(request.headers, "webhook-id").slice(0, 64) || "(no webhook-id)";
      if (body === null) {
        print(`${time}  ${id}  REJECTED (body over ${MAX_BODY_BYTES} bytes)`);
        return answer(413, "too large");
      }
      const text = body.toString("utf8");
      let type = "(unreadable)";
      try {
        const verified = verifier!.verify(text, {
          "webhook-id": headerText(request.headers, "webhook-id"),
          "webhook-timestamp": headerText(request.headers, "webhook-timestamp"),
          "webhook-signature": headerText(request.headers, "webhook-signature"),
        }) as { type?: unknown };
        type = typeof verified.type === "string" ? verified.type : type;
      } catch (error) {
        print(`${time}  ${id}  REJECTED (${(error as Error).message})`);
        return answer(400, "signature not verified");
      }
      if (!options.forwardTo) {
        print(`${time}  ${id}  ${type}  verified`);
        return answer(200, '{"received":true}', "application/json");
      }
      try {
        const forwarded = await fetch(options.forwardTo, {
          method: "POST",
          headers: Object.fromEntries(
            ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [
              name,
              headerText(request.headers, name),
            ]),
          ),
          body: text,
          redirect: "manual",
          signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
        });
        const relayed = await forwarded.text();
        print(`${time}  ${id}  ${type}  verified  -> ${forwarded.status}`);
        return answer(forwarded.status, relayed, forwarded.headers.get("content-type") ?? "text/plain; charset=utf-8");
      } catch (error) {
        print(`${time}  ${id}  ${type}  verified  -> not forwarded (${(error as Error).message})`);
        return answer(502, "forward target did not answer");
      }
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${LOOPBACK}:${port}/webhooks`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  let registered: { endpoint: WebhookEndpoint; secret: string };
  try {
    registered = await registerEndpoint(options, url);
  } catch (error) {
    await close();
    throw error;
  }
  verifier = new Webhook(registered.secret);
  let stopped = false;
  return {
    url,
    endpoint: registered.endpoint,
    secret: registered.secret,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await callApi(options.api, options.bearer, "DELETE", `${ENDPOINTS}/${registered.endpoint.id}`);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      } finally {
        await close();
      }
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: String(DEFAULT_LISTEN_PORT) },
      events: { type: "string" },
      "forward-to": { type: "string" },
      api: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number`);
  const eventTypes = eventTypesOf(values.events);
  const forwardTo = values["forward-to"] ?? null;
  if (forwardTo !== null && !/^https?:\/\//.test(forwardTo))
    throw new UsageError("--forward-to must be an http(s) URL");
  const api = values.api ?? localApiUrl();
  if (!api) throw new UsageError("No running local stack found: start it with `npm start` (or pass --api)");
  const password = values.password ?? process.env.FINTECH_PASSWORD;
  let bearer = process.env.FINTECH_API_KEY ?? null;
  if (values.email) {
    if (!password) throw new UsageError("--email needs --password (or FINTECH_PASSWORD)");
    bearer = await signIn(api, values.email, password);
  }
  if (!bearer) throw new UsageError("No credentials: set FINTECH_API_KEY, or pass --email and --password");

  const listener = await startWebhookListener({ api, bearer, port, eventTypes, forwardTo });
  console.log(`Listening on ${listener.url} for ${eventTypes.length} event types (endpoint ${listener.endpoint.id})`);
  console.log(`Signing secret (shown once): ${listener.secret}`);
  if (forwardTo) console.log(`Forwarding verified deliveries to ${forwardTo}`);
  console.log("Press Ctrl-C to stop (the endpoint is deleted).\n");
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await listener.stop().catch((error: unknown) => console.error(`Could not delete the endpoint: ${String(error)}`));
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : String(error));
    process.exit(1);
  });
}

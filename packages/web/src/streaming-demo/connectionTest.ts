import { sendTryIt, type SendOptions, type TryItReply } from "../developers/explorer/send";

/**
 * The demo's Connection Test (docs/webhooks.md#the-streaming-demo-and-the-test-suite): a real
 * request to the API's health route, timed, then a real CORS preflight. A browser can neither send
 * nor read a preflight (Access-Control-Request-* are forbidden headers), so the API runs one
 * through its own CORS middleware and says what it answered (POST /api/v1/developers/cors-check).
 */

export const CORS_CHECK_PATH = "/api/v1/developers/cors-check";
export const PUBLIC_HEALTH_PATH = "/health";
export const SERVICE_HEALTH_PATH = "/api/health";
/** What the page's own calls send cross-origin: the preflight is checked for these. */
export const CHECKED_METHOD = "POST";
export const CHECKED_HEADERS = ["Content-Type", "Authorization"];

export const CONNECTION_TEST_MESSAGES = {
  failedTitle: "Connection Test Failed",
  failed: "Failed to connect to the API or CORS issues detected",
  passedTitle: "Connection Test Passed",
  unknown: "Unknown error",
} as const;

export interface CorsAnswer {
  origin: string;
  status: number;
  allowOrigin: string | null;
  allowMethods: string | null;
  allowHeaders: string | null;
}

export interface LogLine {
  level: "info" | "success" | "error";
  text: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  lines: LogLine[];
  health: { status: number; durationMs: number; body: Record<string, unknown> | null } | null;
  cors: CorsAnswer | null;
}

export interface ConnectionTestDeps extends Pick<SendOptions, "fetch" | "now" | "signal"> {
  /** The API's base address ("" for the page's own origin). */
  baseUrl: string;
  /** The origin the page runs at: the preflight is sent as from it. */
  pageOrigin: string;
  /** The session token, when signed in: the signed-in health route is tried too. */
  token: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function jsonOf(reply: TryItReply): Record<string, unknown> | null {
  if (reply.kind !== "json") return null;
  try {
    const parsed: unknown = JSON.parse(reply.text);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const ms = (value: number) => `${Math.round(value)} ms`;
/** `503 Service Unavailable`, or `503` when the reply carried no status text. */
const statusLine = (reply: TryItReply) => [reply.status, reply.statusText].filter(Boolean).join(" ");
const failureText = (error: unknown) => (error instanceof Error ? error.message : CONNECTION_TEST_MESSAGES.unknown);

/** Reads what the CORS check answered, or null when the reply is not one. */
export function corsAnswerOf(body: Record<string, unknown> | null): CorsAnswer | null {
  if (!body || typeof body.origin !== "string" || typeof body.status !== "number") return null;
  const header = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    origin: body.origin,
    status: body.status,
    allowOrigin: header(body.allow_origin),
    allowMethods: header(body.allow_methods),
    allowHeaders: header(body.allow_headers),
  };
}

/** Runs the test; never throws (every failure is a line of the log). */
export async function runConnectionTest(deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  const lines: LogLine[] = [];
  const log = (level: LogLine["level"], text: string) => lines.push({ level, text });
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    sendTryIt(
      {
        method,
        url: `${deps.baseUrl}${path}`,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        streaming: false,
      },
      { fetch: deps.fetch, now: deps.now, signal: deps.signal },
    );

  let health: ConnectionTestResult["health"] = null;
  let healthy = false;
  log("info", `GET ${PUBLIC_HEALTH_PATH} …`);
  try {
    const reply = await send("GET", PUBLIC_HEALTH_PATH);
    const body = jsonOf(reply);
    health = { status: reply.status, durationMs: reply.durationMs, body };
    healthy = reply.status === 200;
    const state = typeof body?.status === "string" ? ` (status ${body.status})` : "";
    if (healthy) log("success", `HTTP ${reply.status} in ${ms(reply.durationMs)}${state}`);
    else log("error", `HTTP failure: ${statusLine(reply)}${state}`);
  } catch (error) {
    log("error", `HTTP failure: ${failureText(error)}`);
  }

  if (deps.token) {
    log("info", `GET ${SERVICE_HEALTH_PATH} with your session …`);
    try {
      const reply = await send("GET", SERVICE_HEALTH_PATH, { Authorization: `Bearer ${deps.token}` });
      if (reply.status === 200)
        log("success", `HTTP ${reply.status} in ${ms(reply.durationMs)}: your session is accepted`);
      else {
        healthy = false;
        log("error", `HTTP failure: ${statusLine(reply)}`);
      }
    } catch (error) {
      healthy = false;
      log("error", `HTTP failure: ${failureText(error)}`);
    }
  }

  let cors: CorsAnswer | null = null;
  log("info", `CORS preflight as ${deps.pageOrigin}: ${CHECKED_METHOD} with ${CHECKED_HEADERS.join(", ")} …`);
  try {
    const reply = await send(
      "POST",
      CORS_CHECK_PATH,
      {},
      {
        origin: deps.pageOrigin,
        method: CHECKED_METHOD,
        headers: CHECKED_HEADERS,
      },
    );
    cors = reply.status === 200 ? corsAnswerOf(jsonOf(reply)) : null;
    if (!cors) log("error", `CORS preflight failure: HTTP ${statusLine(reply)}`);
    else {
      log(cors.allowOrigin ? "success" : "info", `Access-Control-Allow-Origin: ${cors.allowOrigin ?? "(none)"}`);
      log("info", `Access-Control-Allow-Methods: ${cors.allowMethods ?? "(none)"}`);
      log("info", `Access-Control-Allow-Headers: ${cors.allowHeaders ?? "(none)"}`);
    }
  } catch (error) {
    log("error", `CORS preflight failure: ${failureText(error)}`);
  }

  return { ok: healthy && cors !== null, lines, health, cors };
}

/**
 * What the preflight's answer means for this page: same-origin pages need no CORS at all (the
 * local server and CloudFront serve the API beside the app); another origin works only when it
 * is allowed.
 */
export function corsVerdict(cors: CorsAnswer, apiOrigin: string): string {
  if (cors.origin === apiOrigin)
    return cors.allowOrigin
      ? "This page and the API share an origin, which is also on the API's CORS list."
      : "This page and the API share an origin, so the browser sends no preflight; this origin is not on the API's CORS list (CORS_ORIGINS), which matters only to pages served elsewhere.";
  return cors.allowOrigin === cors.origin
    ? "The API allows this origin: a browser here may call it."
    : "The API does not allow this origin: a browser here cannot read its replies.";
}

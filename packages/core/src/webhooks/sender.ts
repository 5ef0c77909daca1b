import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import type { CoreContext } from "../shared/context";
import { DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from "./model";
import { WEBHOOK_USER_AGENT } from "./signing";
import { checkTarget, type HostResolver, type ResolvedAddress } from "./ssrf";

/**
 * One delivery attempt over the network (docs/webhooks.md#target-safety-ssrf). The target is
 * resolved and checked again first (a name can point somewhere else since registration), and the
 * connection goes to exactly the address that was checked: the request's own lookup answers with
 * it, while the host name stays in the Host header and TLS's server name. No redirect is
 * followed; the whole attempt, body included, ends after the timeout; at most
 * RESPONSE_EXCERPT_BYTES of the answer are read, then the socket is closed. Whatever the receiver
 * does, the result is a value, never a throw.
 */

export interface AttemptResult {
  /** The receiver's status code; null when no answer came. */
  status_code: number | null;
  latency_ms: number;
  /** Why the attempt got no usable answer, in words. */
  error: string | null;
  /** The first RESPONSE_EXCERPT_BYTES of the answer's body, as text. */
  response_excerpt: string;
}

export interface SendOptions {
  /** Resolves the target's name (default: the context's resolver, else the system's). */
  resolve?: HostResolver;
  /** The whole attempt's limit (default DELIVERY_TIMEOUT_MS). */
  timeoutMs?: number;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** A socket or TLS failure in words a user can act on. */
function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset by the receiver";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the receiver's network is unreachable";
    case "EPIPE":
      return "the receiver closed the connection";
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_STATUS":
    case "HPE_INVALID_HEADER_TOKEN":
      return "the receiver's answer is not valid HTTP";
    default:
      if (typeof code === "string" && /CERT|SSL|TLS|ERR_TLS/.test(code)) return `TLS error (${code})`;
      return typeof code === "string" ? `request failed (${code})` : "request failed";
  }
}

/** A lookup that answers every name with the address the target check approved. */
const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };

export async function sendWebhook(
  ctx: Pick<CoreContext, "config" | "resolveHost">,
  request: { url: string; headers: Record<string, string>; body: string },
  options: SendOptions = {},
): Promise<AttemptResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptResult => ({
    status_code: null,
    latency_ms: elapsed(),
    error,
    response_excerpt: "",
  });
  let verdict: Awaited<ReturnType<typeof checkTarget>>;
  try {
    verdict = await checkTarget(ctx, request.url, options.resolve);
  } catch {
    return failed("refused: the target could not be checked");
  }
  if (!verdict.ok) return failed(`refused: ${verdict.reason}`);
  const { url, address } = verdict;
  const body = Buffer.from(request.body, "utf8");
  const transport = url.protocol === "https:" ? https : http;

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(result);
    };
    const outgoing = transport.request({
      protocol: url.protocol,
      host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: {
        ...request.headers,
        "user-agent": WEBHOOK_USER_AGENT,
        "content-length": String(body.length),
      },
      lookup: pinnedLookup(address),
      agent: false,
    });
    const timer = setTimeout(() => finish(failed(`timed out after ${seconds(timeoutMs)}`)), timeoutMs);
    outgoing.on("error", (error) => finish(failed(describeFailure(error))));
    outgoing.on("response", (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const answer = () => {
        const status = response.statusCode ?? null;
        finish({
          status_code: status,
          latency_ms: elapsed(),
          error: status !== null && status >= 300 && status < 400 ? "redirects are not followed" : null,
          response_excerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8"),
        });
      };
      response.on("data", (chunk: Buffer) => {
        if (received >= RESPONSE_EXCERPT_BYTES) return;
        chunks.push(chunk);
        received += chunk.length;
        if (received >= RESPONSE_EXCERPT_BYTES) answer();
      });
      response.on("end", answer);
      // The answer's status arrived; a body cut off after it still leaves that status to report.
      response.on("error", answer);
      response.on("aborted", answer);
    });
    outgoing.end(body);
  });
}

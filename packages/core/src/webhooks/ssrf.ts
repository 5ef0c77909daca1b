import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import type { CoreContext } from "../shared/context";
import { AppError } from "../shared/errors";
import { BLOCKED_HOST_NAMES, BLOCKED_HOST_SUFFIXES } from "./blocked-hosts";
import { MAX_URL_LENGTH } from "./model";

/**
 * Target safety (docs/webhooks.md#target-safety-ssrf): a webhook is a request the platform makes
 * from inside its network to a URL a user chose, so the URL must never reach the platform itself,
 * its neighbours or the cloud's metadata service. Checked at registration (a clear 400) and again
 * before every delivery (sender.ts), because what a name resolves to can change after it was
 * checked. Only public unicast addresses pass; loopback only with WEBHOOK_LOCAL_TARGETS (the
 * embedded stack, so a receiver on the developer's machine works).
 */

export type ResolvedAddress = { address: string; family: number };
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** A name that takes longer than this to resolve is treated as not resolving. */
export const RESOLVE_TIMEOUT_MS = 5_000;

/** The system resolver: every address of the name, as the operating system finds them. */
export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type TargetRefusalCode =
  | "webhook_url_invalid"
  | "webhook_url_insecure"
  | "webhook_url_forbidden"
  | "webhook_url_unresolvable";

export type TargetVerdict =
  | { ok: true; url: URL; host: string; address: ResolvedAddress }
  | { ok: false; code: TargetRefusalCode; message: string; reason: string };

/** How a refused range is named to the user; the address itself is never echoed. */
const RANGE_WORDS: Record<string, string> = {
  private: "a private address",
  uniqueLocal: "a private address",
  deprecatedSiteLocal: "a private address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  carrierGradeNat: "a carrier-grade NAT address",
};

/** IPv4-compatible IPv6 (::a.b.c.d): deprecated, never a public target, and a way to spell 127.0.0.1. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** Why an address may not be a target, in words (null: it may). */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return "an address that cannot be checked";
  }
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === "unicast")
    return parsed.kind() === "ipv6" && parsed.match(IPV4_COMPATIBLE) ? "a reserved address" : null;
  if (range === "loopback" && allowLoopback) return null;
  return RANGE_WORDS[range] ?? "a reserved address";
}

const refuse = (code: TargetRefusalCode, message: string, reason: string): TargetVerdict => ({
  ok: false,
  code,
  message,
  reason,
});

/** The host as a name or an address: brackets of an IPv6 literal and a final dot removed, lower case. */
const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();

const isBlockedName = (host: string) =>
  BLOCKED_HOST_NAMES.includes(host) || BLOCKED_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix));

/** The URL's form alone: absolute, http(s), https unless local targets are allowed, no credentials. */
export function urlFormVerdict(text: string, allowLocal: boolean): TargetVerdict | URL {
  if (text.length > MAX_URL_LENGTH)
    return refuse("webhook_url_invalid", `The URL must be at most ${MAX_URL_LENGTH} characters`, "invalid URL");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(
      "webhook_url_invalid",
      "The URL must be an absolute URL such as https://example.com/webhooks",
      "invalid URL",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return refuse("webhook_url_invalid", "The URL must start with https://", "not an http(s) URL");
  if (url.protocol === "http:" && !allowLocal)
    return refuse("webhook_url_insecure", "The URL must use https://; plain http is not allowed", "not https");
  if (url.username !== "" || url.password !== "")
    return refuse("webhook_url_invalid", "The URL must not contain a user name or password", "credentials in URL");
  if (hostOf(url) === "") return refuse("webhook_url_invalid", "The URL must name a host", "no host");
  return url;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("resolve timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether `text` may be a webhook target now, and the address to connect to: the form of the
 * URL, the host name against the blocked names, then every address the name resolves to (one
 * refused address refuses the target: a resolver may answer either one next time).
 */
export async function checkTarget(
  ctx: Pick<CoreContext, "config" | "resolveHost">,
  text: string,
  resolve: HostResolver = ctx.resolveHost ?? systemResolver,
): Promise<TargetVerdict> {
  const allowLocal = ctx.config.WEBHOOK_LOCAL_TARGETS;
  const form = urlFormVerdict(text, allowLocal);
  if (!(form instanceof URL)) return form;
  const url = form;
  const host = hostOf(url);
  if (isBlockedName(host))
    return refuse(
      "webhook_url_forbidden",
      `The URL's host ${host} is an internal name; webhooks go to public addresses only`,
      "the host is an internal name",
    );
  let addresses: ResolvedAddress[];
  if (host === "localhost" || host.endsWith(".localhost")) {
    // Loopback by definition (RFC 6761), whatever a resolver would say.
    addresses = [{ address: "127.0.0.1", family: 4 }];
  } else if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    try {
      addresses = await withTimeout(resolve(host), RESOLVE_TIMEOUT_MS);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0)
      return refuse(
        "webhook_url_unresolvable",
        `The URL's host ${host} does not resolve to an address`,
        "the name does not resolve",
      );
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowLocal);
    if (refusal) {
      const subject = ipaddr.isValid(host) ? "The URL points at" : `The URL's host ${host} resolves to`;
      return refuse(
        "webhook_url_forbidden",
        `${subject} ${refusal}; webhooks go to public addresses only`,
        `${ipaddr.isValid(host) ? "the URL points at" : "the name now resolves to"} ${refusal}`,
      );
    }
  }
  return { ok: true, url, host, address: addresses[0]! };
}

/** A URL a user gives for an endpoint, checked for registration: the URL, or a 400 saying why not. */
export async function validateEndpointUrl(
  ctx: Pick<CoreContext, "config" | "resolveHost">,
  text: string,
  resolve?: HostResolver,
): Promise<URL> {
  const verdict = await checkTarget(ctx, text, resolve);
  if (!verdict.ok) throw new AppError(400, verdict.code, verdict.message);
  return verdict.url;
}

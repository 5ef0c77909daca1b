import { isIP } from "node:net";
import type { Context } from "hono";
import type { AppEnv } from "./app-context";

/** What the Lambda adapter (hono/aws-lambda) and the Node server (@hono/node-server) put on c.env. */
export interface ClientIpEnv {
  event?: { requestContext?: { http?: { sourceIp?: unknown }; identity?: { sourceIp?: unknown } } };
  incoming?: { socket?: { remoteAddress?: unknown } };
}

/** Set by CloudFront's origin request policy (stacks/Web.ts): "ip:port", IPv4 or IPv6. */
export const VIEWER_ADDRESS_HEADER = "cloudfront-viewer-address";

export const UNKNOWN_CLIENT = "unknown";

/** The longest textual IPv6 address, "ffff:…:255.255.255.255", plus a port: more is not an address. */
const MAX_ADDRESS_WITH_PORT = 45 + 6;

/** A value that is a real IP address, normalised; anything else (absent, forged junk) is null. */
export function normaliseIp(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ADDRESS_WITH_PORT) return null;
  // The Node socket reports IPv4 clients of a dual-stack server as "::ffff:1.2.3.4".
  const address = value.startsWith("::ffff:") && isIP(value.slice(7)) === 4 ? value.slice(7) : value;
  return isIP(address) === 0 ? null : address.toLowerCase();
}

/** "203.0.113.7:443" or "2001:db8::1:443" (CloudFront writes IPv6 without brackets): drop the port. */
export function viewerAddressIp(header: string | undefined): string | null {
  if (!header || header.length > MAX_ADDRESS_WITH_PORT) return null;
  const separator = header.lastIndexOf(":");
  if (separator <= 0 || !/^\d{1,5}$/.test(header.slice(separator + 1))) return null;
  return normaliseIp(header.slice(0, separator).replace(/^\[(.*)\]$/, "$1"));
}

/**
 * IPv6 clients are counted by their /64: one subscriber gets at least that many addresses, so
 * keying on the full address would hand every attacker 2^64 fresh rate-limit buckets.
 */
export function ipv6Network64(address: string): string {
  const [head = "", tail] = address.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const withV4 = (parts: string[]) => {
    const last = parts.at(-1);
    if (!last?.includes(".")) return parts;
    const [a = 0, b = 0, c = 0, d = 0] = last.split(".").map(Number);
    return [...parts.slice(0, -1), ((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  const left = withV4(groups(head));
  const right = withV4(groups(tail));
  const full =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * The caller's address, for rate limiting: only from sources the caller cannot write, and never
 * X-Forwarded-For (any client sets it, so rotating it would escape the per-IP limit).
 *
 * - Cloud (ORIGIN_SECRET configured): every request reaching a route has passed the origin
 *   proof (http/origin-verify.ts), so it came through CloudFront, which sets
 *   CloudFront-Viewer-Address itself. Without it, the Lambda event's sourceIp (the peer as
 *   AWS saw it).
 * - Local (no CDN, so the header would be the client's own): the TCP socket's peer.
 *
 * Always a valid IPv4 address, an IPv6 /64 or "unknown", so the value is bounded before it
 * becomes a key.
 */
export function clientIp(c: Context<AppEnv>): string {
  const env = (c.env ?? {}) as ClientIpEnv;
  const behindCloudFront = c.get("core").config.ORIGIN_SECRET !== undefined;
  const candidates = [
    behindCloudFront ? viewerAddressIp(c.req.header(VIEWER_ADDRESS_HEADER)) : null,
    normaliseIp(env.event?.requestContext?.http?.sourceIp),
    normaliseIp(env.event?.requestContext?.identity?.sourceIp),
    normaliseIp(env.incoming?.socket?.remoteAddress),
  ];
  const address = candidates.find((candidate) => candidate !== null);
  if (!address) return UNKNOWN_CLIENT;
  return isIP(address) === 6 ? ipv6Network64(address) : address;
}

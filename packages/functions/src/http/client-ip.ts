import type { Context } from "hono";

interface LambdaEnv {
  event?: { requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } };
}
interface NodeEnv {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The caller's address for rate limiting. Behind CloudFront the viewer's address is the last
 * X-Forwarded-For entry (CloudFront appends it; earlier entries are whatever the client sent).
 */
export function clientIp(c: Context): string {
  const forwarded = c.req.header("x-forwarded-for");
  const last = forwarded?.split(",").map((part) => part.trim()).filter(Boolean).pop();
  if (last) return last;
  const env = c.env as (LambdaEnv & NodeEnv) | undefined;
  return (
    env?.event?.requestContext?.http?.sourceIp ??
    env?.event?.requestContext?.identity?.sourceIp ??
    env?.incoming?.socket?.remoteAddress ??
    "unknown"
  );
}

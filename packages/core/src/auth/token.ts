import { sign, verify } from "hono/jwt";
import { z } from "zod";
import { unauthorized } from "../shared/errors";
import { Role } from "./model";

const ALGORITHM = "HS256";

export const TokenClaims = z.object({
  sub: z.string(),
  role: Role,
  iat: z.number(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

export async function issueToken(
  user: { id: string; role: Role },
  secret: string,
  ttlSeconds: number,
  now: Date,
): Promise<{ token: string; expires_at: string }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ttlSeconds;
  const token = await sign({ sub: user.id, role: user.role, iat, exp }, secret, ALGORITHM);
  return { token, expires_at: new Date(exp * 1000).toISOString() };
}

/**
 * Signature, algorithm and expiry are all checked; any failure is the same 401. Times are
 * judged against `now` (the context's clock), not the library's own Date.now().
 */
export async function verifyToken(token: string, secret: string, now: Date): Promise<TokenClaims> {
  const invalid = () => unauthorized("Invalid or expired token", "invalid_token");
  let claims: TokenClaims;
  try {
    claims = TokenClaims.parse(await verify(token, secret, { alg: ALGORITHM, exp: false, iat: false, nbf: false }));
  } catch {
    throw invalid();
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= nowSeconds || claims.iat > nowSeconds) throw invalid();
  return claims;
}

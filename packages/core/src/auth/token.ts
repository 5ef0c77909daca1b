import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT, type ProtectedHeaderParameters } from "jose";
import { z } from "zod";
import { unauthorized } from "../shared/errors";
import type { Keyring } from "../shared/keyring";
import { Role } from "./model";

const ALGORITHM = "HS256";
/** The label of the session-signing key within the session keyring (keyring.ts). */
export const SESSION_TOKEN_LABEL = "fintech/session-token/v1";
/** No token we issue comes near this; anything longer was not made here. */
const MAX_TOKEN_LENGTH = 4_000;

/**
 * A session id: the user's session epoch (bumped by "sign out everywhere", sessions.ts) and a
 * random part. Only the server reads it.
 */
export const SessionId = z.string().regex(/^\d{1,9}\.[0-9a-f-]{36}$/);

export const TokenClaims = z.object({
  sub: z.string().min(1).max(200),
  role: Role,
  iat: z.number(),
  exp: z.number(),
  nbf: z.number().optional(),
  /** The session this token belongs to (sessions.ts); a stream ticket carries its session's. */
  sid: SessionId.optional(),
  /** A stream ticket issued for an API key carries the key's id instead. */
  akid: z.string().min(1).max(64).optional(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

export const newSessionId = (epoch: number): string => `${epoch}.${randomUUID()}`;

/**
 * What a token's header may say: HS256, `typ` absent or JWT, no `crit` (no extension we would
 * have to understand). The key version is its `kid`.
 */
function isSessionHeader(header: ProtectedHeaderParameters): boolean {
  const typ = header.typ;
  const typIsJwt =
    typ === undefined || (typeof typ === "string" && typ.toLowerCase().replace(/^application\//, "") === "jwt");
  return header.alg === ALGORITHM && typIsJwt && !("crit" in header);
}

export interface TokenSigner {
  keys: Keyring;
  /** Which use of the keyring: session tokens and stream tickets never verify for each other. */
  label: string;
}

export const sessionSigner = (keys: Keyring): TokenSigner => ({ keys, label: SESSION_TOKEN_LABEL });

/** Signs with the keyring's newest version; the claims beyond sub/role/iat/exp are the caller's. */
export async function issueToken(
  user: { id: string; role: Role },
  signer: TokenSigner | Keyring,
  ttlSeconds: number,
  now: Date,
  claims: { sid?: string; akid?: string } = {},
): Promise<{ token: string; expires_at: string; exp: number }> {
  const { keys, label } = "label" in signer ? signer : sessionSigner(signer);
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ttlSeconds;
  const payload = { sub: user.id, role: user.role, iat, exp, ...claims };
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT", kid: keys.current.version })
    .sign(keys.current.key(label));
  return { token, expires_at: new Date(exp * 1000).toISOString(), exp };
}

/**
 * Signature, algorithm, key version and times are all checked; any failure is the same 401.
 * The key is the one the header's `kid` names, so a token signed before a rotation verifies until
 * it expires while the previous version is kept, and a version that was removed (or never
 * existed) is refused. Times are judged against `now` (the context's clock), not the library's
 * own Date.now(): not before `nbf` and `iat`, not at or after `exp`.
 */
export async function verifyToken(token: string, signer: TokenSigner | Keyring, now: Date): Promise<TokenClaims> {
  const { keys, label } = "label" in signer ? signer : sessionSigner(signer);
  const invalid = () => unauthorized("Invalid or expired token", "invalid_token");
  if (token.length > MAX_TOKEN_LENGTH) throw invalid();
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw invalid();
  }
  const version = typeof header.kid === "string" && isSessionHeader(header) ? keys.find(header.kid) : undefined;
  if (!version) throw invalid();
  let claims: TokenClaims;
  try {
    const { payload } = await jwtVerify(token, version.key(label), { algorithms: [ALGORITHM], currentDate: now });
    claims = TokenClaims.parse(payload);
  } catch {
    throw invalid();
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= nowSeconds || claims.iat > nowSeconds) throw invalid();
  if (claims.nbf !== undefined && claims.nbf > nowSeconds) throw invalid();
  return claims;
}

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { parseKeyring, type Keyring } from "../shared/keyring";
import { issueToken, newSessionId, SESSION_TOKEN_LABEL, verifyToken } from "./token";

const V1 = "1:session-key-version-one-long-enough-for-hs256";
const V2 = "2:session-key-version-two-long-enough-for-hs256";
const keyring = (text: string): Keyring => parseKeyring("SESSION_KEYS", text);
const now = new Date("2026-03-01T10:00:00.000Z");
const nowSeconds = Math.floor(now.getTime() / 1000);
const user = { id: "user-1", role: "user" as const };

/** A token signed by hand with a keyring version, for claims issueToken never makes. */
async function handMade(
  keys: Keyring,
  version: string,
  claims: Record<string, unknown>,
  header: { kid?: string } = { kid: version },
): Promise<string> {
  const key = keys.find(version)!.key(SESSION_TOKEN_LABEL);
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT", ...header }).sign(key);
}

const refused = async (token: string, keys: Keyring, at = now) => {
  await expect(verifyToken(token, keys, at)).rejects.toMatchObject({ status: 401, code: "invalid_token" });
};

describe("session tokens", () => {
  it("carry the session id and the signing key's version in the header", async () => {
    const sid = newSessionId(0);
    const { token, exp } = await issueToken(user, keyring(`${V2},${V1}`), 3600, now, { sid });
    const header = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8"));
    expect(header).toMatchObject({ alg: "HS256", kid: "2" });
    expect(await verifyToken(token, keyring(`${V2},${V1}`), now)).toMatchObject({
      sub: "user-1",
      role: "user",
      sid,
      iat: nowSeconds,
      exp,
    });
  });

  it("are refused before their nbf, and accepted from it on (judged by the given clock)", async () => {
    const keys = keyring(V1);
    const claims = { sub: "user-1", role: "user", iat: nowSeconds, exp: nowSeconds + 3600, sid: newSessionId(0) };
    await refused(await handMade(keys, "1", { ...claims, nbf: nowSeconds + 60 }), keys);
    const notBefore = await handMade(keys, "1", { ...claims, nbf: nowSeconds + 60 });
    expect(await verifyToken(notBefore, keys, new Date((nowSeconds + 60) * 1000))).toMatchObject({
      nbf: nowSeconds + 60,
    });
    expect(await verifyToken(await handMade(keys, "1", { ...claims, nbf: nowSeconds }), keys, now)).toMatchObject({
      sub: "user-1",
    });
    await refused(await handMade(keys, "1", { ...claims, nbf: "soon" }), keys);
  });

  it("are refused when expired or issued in the future", async () => {
    const keys = keyring(V1);
    const { token } = await issueToken(user, keys, 60, now, { sid: newSessionId(0) });
    await refused(token, keys, new Date((nowSeconds + 60) * 1000));
    await refused(token, keys, new Date((nowSeconds - 1) * 1000));
  });

  it("signed before a rotation verify while the previous version is kept, and not once it is removed", async () => {
    const before = (await issueToken(user, keyring(V1), 3600, now, { sid: newSessionId(0) })).token;
    expect(await verifyToken(before, keyring(`${V2},${V1}`), now)).toMatchObject({ sub: "user-1" });
    await refused(before, keyring(V2));
  });

  it("are refused under a version the keyring does not have, without a kid, or signed by another version than the kid names", async () => {
    const keys = keyring(`${V2},${V1}`);
    const claims = { sub: "user-1", role: "user", iat: nowSeconds, exp: nowSeconds + 3600, sid: newSessionId(0) };
    await refused(await handMade(keyring("9:a-key-of-a-version-nobody-has-long-enough"), "9", claims), keys);
    await refused(await handMade(keys, "1", claims, {}), keys);
    await refused(await handMade(keys, "1", claims, { kid: "2" }), keys);
    await refused("not.a.token", keys);
    await refused("x".repeat(5_000), keys);
  });

  it("never verify for another use of the same keyring (a stream ticket is not a session)", async () => {
    const keys = keyring(V1);
    const ticket = await issueToken(user, { keys, label: "fintech/stream-ticket/v1" }, 60, now, {
      sid: newSessionId(0),
    });
    await refused(ticket.token, keys);
    const session = await issueToken(user, keys, 60, now, { sid: newSessionId(0) });
    await expect(verifyToken(session.token, { keys, label: "fintech/stream-ticket/v1" }, now)).rejects.toMatchObject({
      status: 401,
    });
  });
});

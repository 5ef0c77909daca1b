import { describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { loadConfig } from "../shared/config";
import { openSecret, sealSecret, SecretUnreadableError } from "./secrets";
import { newSigningSecret, signedHeaders } from "./signing";

/**
 * Signatures as a receiver checks them, with the Standard Webhooks library itself; and secrets
 * sealed at rest across a rotation of WEBHOOK_SECRET_KEYS.
 */

const body = JSON.stringify({
  id: "evt_0001",
  type: "payment.paymentCompleted",
  created_at: "2026-11-29T10:00:00.000Z",
  data: {},
});

describe("signedHeaders", () => {
  it("makes secrets the libraries take: whsec_ and 32 random bytes", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it("verifies with each of two secrets during a rotation's overlap", () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const now = new Date();
    const headers = signedHeaders([current, previous], "evt_0001", now, body);
    expect(headers["webhook-id"]).toBe("evt_0001");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(headers["content-type"]).toBe("application/json");
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it("fails verification for a tampered body, id or timestamp, and outside the library's tolerance", () => {
    const secret = newSigningSecret();
    const now = new Date();
    const headers = signedHeaders([secret], "evt_0001", now, body);
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(body.replace("paymentCompleted", "paymentError"), headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => webhook.verify(body, { ...headers, "webhook-id": "evt_0002" })).toThrow(WebhookVerificationError);
    const moved = String(Number(headers["webhook-timestamp"]) + 1);
    expect(() => webhook.verify(body, { ...headers, "webhook-timestamp": moved })).toThrow(WebhookVerificationError);
    const stale = new Date(now.getTime() - 6 * 60_000);
    expect(() => webhook.verify(body, signedHeaders([secret], "evt_0001", stale, body))).toThrow(/too old/i);
    const early = new Date(now.getTime() + 6 * 60_000);
    expect(() => webhook.verify(body, signedHeaders([secret], "evt_0001", early, body))).toThrow(/too new/i);
  });

  it("refuses to sign without a secret", () => {
    expect(() => signedHeaders([], "evt_0001", new Date(), body)).toThrow(RangeError);
  });
});

describe("secrets at rest", () => {
  const v1 = loadConfig({ WEBHOOK_SECRET_KEYS: "v1:first-webhook-secret-key-material-long-enough" });
  const rotated = loadConfig({
    WEBHOOK_SECRET_KEYS:
      "v2:second-webhook-secret-key-material-long-enough,v1:first-webhook-secret-key-material-long-enough",
  });
  const retired = loadConfig({ WEBHOOK_SECRET_KEYS: "v2:second-webhook-secret-key-material-long-enough" });

  it("stores ciphertext only, with the key version beside it, readable after a keyring rotation", () => {
    const secret = newSigningSecret();
    const sealed = sealSecret(v1, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", secret);
    expect(sealed.key_version).toBe("v1");
    expect(sealed.ciphertext).not.toContain(secret.slice(6, 20));
    expect(openSecret(rotated, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", sealed)).toBe(secret);
    expect(sealSecret(rotated, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", secret).key_version).toBe("v2");
    expect(() => openSecret(retired, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", sealed)).toThrow(SecretUnreadableError);
  });

  it("does not open on another endpoint, or tampered", () => {
    const sealed = sealSecret(v1, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", newSigningSecret());
    expect(() => openSecret(v1, "we_bbbbbbbbbbbbbbbbbbbbbbbbbb", sealed)).toThrow(SecretUnreadableError);
    const bytes = Buffer.from(sealed.ciphertext, "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(() =>
      openSecret(v1, "we_aaaaaaaaaaaaaaaaaaaaaaaaaa", { ...sealed, ciphertext: bytes.toString("base64url") }),
    ).toThrow(SecretUnreadableError);
  });
});

import { hkdfSync } from "node:crypto";

/**
 * A key for one purpose (cursor MACs, stream tickets...), derived from the configured secret with
 * HKDF and that purpose as its label: a signature made for one purpose never verifies for another,
 * and none of them for a session token signed with the secret itself.
 */
const derived = new Map<string, Buffer>();

export function derivedKey(secret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "", purpose, 32));
    derived.set(id, key);
  }
  return key;
}

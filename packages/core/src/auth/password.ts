import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const KEY_LENGTH = 64;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function scrypt(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  const options: ScryptOptions = {
    N: cost,
    r: blockSize,
    p: parallelism,
    // Node refuses by default above 32 MiB; allow what the parameters need plus headroom.
    maxmem: 256 * cost * blockSize * parallelism,
  };
  return new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** scrypt is memory-hard; the stored string carries its parameters so the cost can rise later. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, cost, BLOCK_SIZE, PARALLELISM);
  return ["scrypt", cost, BLOCK_SIZE, PARALLELISM, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !cost || !blockSize || !parallelism || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(
    password.normalize("NFKC"),
    Buffer.from(salt, "base64"),
    Number(cost),
    Number(blockSize),
    Number(parallelism),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, verified against when the email is unknown so that a login for
 * an unknown email takes as long as one with a wrong password.
 */
export async function decoyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString("base64"), cost);
}

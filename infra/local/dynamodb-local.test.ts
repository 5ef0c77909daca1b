import { readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";

/**
 * DynamoDB Local takes any credentials, so it must not be reachable from other hosts: the run's
 * instance (started by the global setup through dynamodb-local.ts) listens on 127.0.0.1 alone.
 */

/** An address as /proc/net/tcp{,6} prints it: 32-bit words in host (little-endian) byte order. */
function decodeProcAddress(hex: string): string {
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) =>
    (word.match(/../g) ?? []).reverse().map((byte) => parseInt(byte, 16)),
  );
  if (bytes.length === 4) return bytes.join(".");
  const mappedV4 = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mappedV4) return `::ffff:${bytes.slice(12).join(".")}`;
  return Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(":");
}

const LISTEN = "0A";

/** The local addresses of every socket listening on `port`, from the kernel's own tables. */
function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").trim().split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, portHex] = (local ?? "").split(":");
      if (state === LISTEN && parseInt(portHex ?? "", 16) === port) addresses.push(decodeProcAddress(address!));
    }
  }
  return addresses;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("DynamoDB Local", () => {
  const port = Number(new URL(inject("dynamodbEndpoint")).port);

  it("decodes the kernel's socket tables", () => {
    expect(decodeProcAddress("0100007F")).toBe("127.0.0.1");
    expect(decodeProcAddress("00000000")).toBe("0.0.0.0");
    expect(decodeProcAddress("0000000000000000FFFF00000100007F")).toBe("::ffff:127.0.0.1");
    expect(decodeProcAddress("00000000000000000000000000000000")).toBe("0:0:0:0:0:0:0:0");
  });

  it("listens on the loopback address only", () => {
    const addresses = listeningAddresses(port);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(["127.0.0.1", "::ffff:127.0.0.1"]).toContain(address);
  });

  it("answers on 127.0.0.1 and refuses another address of this machine (127.0.0.2, which a wildcard listener would take)", async () => {
    expect(await connects("127.0.0.1", port)).toBe(true);
    expect(await connects("127.0.0.2", port)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { loadConfig } from "../shared/config";
import { isAppError } from "../shared/errors";
import { addressRefusal, checkTarget, validateEndpointUrl, type HostResolver } from "./ssrf";

/**
 * Target safety at registration: the URL's form, blocked names, and every address a name
 * resolves to, with the local-targets flag off (the cloud) and on (the embedded stack). Names
 * resolve through a resolver the test controls; `localhost` through the system's.
 */

const NAMES: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "private.example.com": ["10.0.0.5"],
  "mixed.example.com": ["93.184.216.34", "192.168.1.20"],
  "loopback.example.com": ["127.0.0.1"],
  "mapped.example.com": ["::ffff:10.0.0.1"],
  "metadata-alias.example.com": ["169.254.169.254"],
};
const resolve: HostResolver = async (hostname) => {
  const addresses = NAMES[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const cloud = { config: loadConfig({}), resolveHost: resolve };
const local = { config: loadConfig({ WEBHOOK_LOCAL_TARGETS: "true" }), resolveHost: resolve };

async function refusal(ctx: typeof cloud, url: string) {
  try {
    await validateEndpointUrl(ctx, url);
  } catch (error) {
    if (isAppError(error)) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  return null;
}

describe("registration with WEBHOOK_LOCAL_TARGETS off", () => {
  it.each([
    ["https://127.0.0.1/hook", "webhook_url_forbidden", /points at a loopback address/],
    ["https://localhost/hook", "webhook_url_forbidden", /localhost resolves to a loopback address/],
    ["https://[::1]/hook", "webhook_url_forbidden", /loopback address/],
    ["https://169.254.169.254/latest/meta-data/", "webhook_url_forbidden", /link-local address/],
    ["https://10.0.0.1/hook", "webhook_url_forbidden", /private address/],
    ["https://172.16.4.4/hook", "webhook_url_forbidden", /private address/],
    ["https://192.168.0.10/hook", "webhook_url_forbidden", /private address/],
    ["https://[fd00:ec2::254]/hook", "webhook_url_forbidden", /private address/],
    ["https://[fe80::1]/hook", "webhook_url_forbidden", /link-local address/],
    ["https://[::ffff:127.0.0.1]/hook", "webhook_url_forbidden", /loopback address/],
    ["https://[::7f00:1]/hook", "webhook_url_forbidden", /reserved address/],
    ["https://100.64.0.1/hook", "webhook_url_forbidden", /carrier-grade NAT address/],
    ["https://0.0.0.0/hook", "webhook_url_forbidden", /unspecified address/],
    ["https://255.255.255.255/hook", "webhook_url_forbidden", /broadcast address/],
    ["https://224.0.0.1/hook", "webhook_url_forbidden", /multicast address/],
    ["https://240.0.0.1/hook", "webhook_url_forbidden", /reserved address/],
    ["https://2130706433/hook", "webhook_url_forbidden", /loopback address/],
    ["https://0x7f.1/hook", "webhook_url_forbidden", /loopback address/],
    [
      "https://private.example.com/hook",
      "webhook_url_forbidden",
      /private\.example\.com resolves to a private address/,
    ],
    ["https://mixed.example.com/hook", "webhook_url_forbidden", /private address/],
    ["https://mapped.example.com/hook", "webhook_url_forbidden", /private address/],
    ["https://metadata-alias.example.com/hook", "webhook_url_forbidden", /link-local address/],
    ["https://metadata.google.internal/computeMetadata/v1/", "webhook_url_forbidden", /internal name/],
    ["https://METADATA.google.internal./x", "webhook_url_forbidden", /internal name/],
    ["https://printer.local/x", "webhook_url_forbidden", /internal name/],
    ["http://hooks.example.com/hook", "webhook_url_insecure", /must use https/],
    ["http://127.0.0.1:8080/hook", "webhook_url_insecure", /must use https/],
    ["https://user:pass@hooks.example.com/hook", "webhook_url_invalid", /user name or password/],
    ["https://user@hooks.example.com/hook", "webhook_url_invalid", /user name or password/],
    ["ftp://hooks.example.com/hook", "webhook_url_invalid", /https/],
    ["hooks.example.com/hook", "webhook_url_invalid", /absolute URL/],
    ["https://nowhere.example.com/hook", "webhook_url_unresolvable", /does not resolve/],
  ])("refuses %s (%s)", async (url, code, message) => {
    const refused = await refusal(cloud, url);
    expect(refused).toMatchObject({ status: 400, code });
    expect(refused!.message).toMatch(message);
  });

  it("never echoes a resolved address", async () => {
    const refused = await refusal(cloud, "https://private.example.com/hook");
    expect(refused!.message).not.toContain("10.0.0.5");
  });

  it("accepts a name whose every address is public, on any port, and keeps the URL as given", async () => {
    const url = await validateEndpointUrl(cloud, "https://hooks.example.com:8443/fintech?x=1");
    expect(url.toString()).toBe("https://hooks.example.com:8443/fintech?x=1");
    await expect(validateEndpointUrl(cloud, "https://93.184.216.34/hook")).resolves.toBeInstanceOf(URL);
  });

  it("gives up on a name that does not answer in time", async () => {
    const slow = { ...cloud, resolveHost: () => new Promise<never>(() => undefined) };
    const started = Date.now();
    const verdict = await checkTarget(slow, "https://slow.example.com/");
    expect(verdict).toMatchObject({ ok: false, code: "webhook_url_unresolvable" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("registration with WEBHOOK_LOCAL_TARGETS on (the embedded stack)", () => {
  it("accepts http and loopback targets, so a receiver on this machine works", async () => {
    await expect(validateEndpointUrl(local, "http://127.0.0.1:4319/hook")).resolves.toBeInstanceOf(URL);
    await expect(validateEndpointUrl(local, "http://localhost:4319/hook")).resolves.toBeInstanceOf(URL);
    await expect(validateEndpointUrl(local, "http://[::1]:4319/hook")).resolves.toBeInstanceOf(URL);
    await expect(validateEndpointUrl(local, "http://loopback.example.com:4319/hook")).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ["http://10.0.0.1/hook", /private address/],
    ["http://192.168.1.1/hook", /private address/],
    ["http://169.254.169.254/latest/meta-data/", /link-local address/],
    ["http://private.example.com/hook", /private address/],
    ["http://metadata.google.internal/", /internal name/],
    ["http://100.100.100.200/", /carrier-grade NAT/],
  ])("still refuses %s", async (url, message) => {
    const refused = await refusal(local, url);
    expect(refused).toMatchObject({ status: 400, code: "webhook_url_forbidden" });
    expect(refused!.message).toMatch(message);
  });

  it("still refuses credentials in the URL", async () => {
    expect(await refusal(local, "http://a:b@127.0.0.1:4319/")).toMatchObject({ code: "webhook_url_invalid" });
  });
});

describe("addressRefusal", () => {
  it("passes public unicast addresses only", () => {
    expect(addressRefusal("8.8.8.8", false)).toBeNull();
    expect(addressRefusal("2606:4700::1111", false)).toBeNull();
    expect(addressRefusal("::ffff:8.8.8.8", false)).toBeNull();
    expect(addressRefusal("127.0.0.1", true)).toBeNull();
    expect(addressRefusal("127.0.0.1", false)).toBe("a loopback address");
    expect(addressRefusal("64:ff9b::a00:1", false)).toBe("a reserved address");
    expect(addressRefusal("2002:a00:1::", false)).toBe("a reserved address");
    expect(addressRefusal("not an address", false)).toBe("an address that cannot be checked");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { ORIGIN_PROOF_HEADER, originProofAccepted } from "./origin-verify";

/** The origin proof while CloudFront changes over to a new secret: current and previous pass. */

const CURRENT = "the-current-origin-secret-that-cloudfront-sends";
const PREVIOUS = "the-previous-origin-secret-some-edges-still-send";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let rotating: TestApp;
let settled: TestApp;
beforeAll(async () => {
  [rotating, settled] = await Promise.all([
    createTestApp({ ORIGIN_SECRET: CURRENT, ORIGIN_SECRET_PREVIOUS: PREVIOUS }),
    createTestApp({ ORIGIN_SECRET: CURRENT }),
  ]);
});
afterAll(async () => Promise.all([rotating.core.dispose(), settled.core.dispose()]));

const statusWith = async (t: TestApp, proof?: string) =>
  (await t.call("GET", "/health", { headers: proof === undefined ? {} : { [ORIGIN_PROOF_HEADER]: proof } })).status;

describe("the origin check during a rotation", () => {
  it("accepts the current and the previous secret, and nothing else", async () => {
    expect(await statusWith(rotating, CURRENT)).not.toBe(403);
    expect(await statusWith(rotating, PREVIOUS)).not.toBe(403);
    for (const bad of [undefined, "", `${PREVIOUS}x`, CURRENT.slice(1), "guess"])
      expect(await statusWith(rotating, bad), String(bad)).toBe(403);
  });

  it("accepts only the current secret once the previous one is dropped", async () => {
    expect(await statusWith(settled, CURRENT)).not.toBe(403);
    expect(await statusWith(settled, PREVIOUS)).toBe(403);
  });

  it("compares with every accepted secret", () => {
    expect(originProofAccepted([CURRENT, PREVIOUS], PREVIOUS)).toBe(true);
    expect(originProofAccepted([CURRENT], PREVIOUS)).toBe(false);
    expect(originProofAccepted([], CURRENT)).toBe(false);
    expect(originProofAccepted([CURRENT, PREVIOUS], undefined)).toBe(false);
  });
});

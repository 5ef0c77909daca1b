import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * Through the whole app: the routes that take more than 1 MB get past the general limit and
 * answer oversized bodies in their own words; everything else keeps the 1 MB limit.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let userToken: string;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  userToken = (await t.signUp("limits@example.com")).token;
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "limits-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  adminToken = (
    await t.call("POST", "/api/v1/auth/login", {
      body: { email: "limits-admin@example.com", password: "admin password 1" },
      ip: nextTestAddress(),
    })
  ).body.data.token;
});
afterAll(async () => t.core.dispose());

describe("body limits", () => {
  it("lets a KYC command carry a picture over 1 MB, and answers a 7 MB one with the documented size message", async () => {
    const overGeneralLimit = await t.call("POST", "/api/grpc/kyc/command", {
      token: userToken,
      body: {
        command: {
          uploadDocument: { documentType: "passport", documentData: "A".repeat(1_500_000), fileName: "passport.png" },
        },
      },
    });
    expect(overGeneralLimit.body.code).not.toBe("payload_too_large");
    const tooBig = await t.call("POST", "/api/grpc/kyc/command", {
      token: userToken,
      body: { command: { uploadDocument: { documentType: "passport", documentData: "A".repeat(7_100_000) } } },
    });
    expect(tooBig.status).toBe(413);
    expect(JSON.stringify(tooBig.body)).toContain("File size must be less than 5MB");
  });

  it("takes a watchlist CSV over 1 MB", async () => {
    const rows = Array.from(
      { length: 19_000 },
      (_, index) => `Person Number ${index} Example Surname Long Enough To Fill,IN`,
    );
    const csv = `name,country\n${rows.join("\n")}\n`;
    expect(JSON.stringify({ csv }).length).toBeGreaterThan(1_024 * 1_024);
    const reply = await t.call("POST", "/api/v1/kyc/rules/watchlist", {
      token: adminToken,
      body: { csv, name: "large list" },
    });
    expect(reply.body.code).not.toBe("payload_too_large");
    expect(reply.status).toBeLessThan(300);
  });

  it("keeps the general 1 MB limit everywhere else", async () => {
    const reply = await t.call("POST", "/api/v1/kyc/start", {
      token: userToken,
      body: { country: "IN", name: "x".repeat(1_200_000), email: "a@b.example", phone: "+911234567890" },
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe("payload_too_large");
  });
});

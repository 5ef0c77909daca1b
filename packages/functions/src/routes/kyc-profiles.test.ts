import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { findUserSubmission } from "@fintech/core/kyc/submissions";

/** /v1/kyc/profiles: a profile starts the caller's KYC; reads are the owner's (or an admin's). */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "profiles-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "profiles-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => t.core.dispose());

let users = 0;
const newUser = () => t.signUp(`profile-user-${++users}@example.com`);
const profileBody = {
  name: "Asha Rao",
  email: "asha@example.com",
  phone: "+919876543210",
  country: "IN",
  location: "Mumbai, India",
  amount: 75_000,
  documents: { passport: { documentNumber: "Z1234567", issuingCountry: "in", expiryDate: "2031-04-30" } },
  avatar: "https://cdn.example.com/avatars/asha.png",
};
const create = (token: string | undefined, body: unknown) => t.call("POST", "/v1/kyc/profiles", { token, body });

describe("creating a profile", () => {
  it("starts the caller's KYC and answers profile.profileId; a second is a 409", async () => {
    const user = await newUser();
    const reply = await create(user.token, { ...profileBody, userId: user.user.id });
    expect(reply.status).toBe(201);
    const submission = (await findUserSubmission(t.core, user.user.id))!;
    expect(reply.body.profile).toMatchObject({
      profileId: submission.id,
      userId: user.user.id,
      location: "Mumbai, India",
      amount: 75_000,
      avatar: profileBody.avatar,
      documents: {
        passport: {
          documentNumber: "XXXX4567",
          issuingCountry: "IN",
          expiryDate: "2031-04-30",
          status: "not_uploaded",
        },
      },
      status: "pending",
      progress: 0,
    });
    expect(JSON.stringify(reply.body)).not.toContain("Z1234567");
    expect(submission).toMatchObject({ location: "Mumbai, India", amount: 75_000, country: "IN" });

    const again = await create(user.token, profileBody);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("already has a KYC submission");
  });

  it("refuses another user's id (403) and bad fields (400), creating nothing", async () => {
    const user = await newUser();
    const other = await newUser();
    expect((await create(undefined, profileBody)).status).toBe(401);
    const forbidden = await create(user.token, { ...profileBody, userId: other.user.id });
    expect(forbidden.status).toBe(403);
    const cases: [unknown, string][] = [
      [
        { ...profileBody, country: "GB", documents: { residencePermit: {} } },
        "Residence Permit is not accepted for United Kingdom",
      ],
      [{ ...profileBody, documents: { visa: {} } }, "Unknown field: visa"],
      [{ ...profileBody, documents: { passport: { documentNumber: "x".repeat(65) } } }, "documentNumber"],
      [{ ...profileBody, documents: { passport: { expiryDate: "next year" } } }, "expiryDate"],
      [{ ...profileBody, documents: { passport: { issuingCountry: "ZZ" } } }, "issuingCountry"],
      [{ ...profileBody, documents: { passport: { photo: "data:image/png;base64,AAAA" } } }, "Unknown field"],
      [{ ...profileBody, avatar: "javascript:alert(1)" }, "avatar"],
      [{ ...profileBody, avatar: `https://example.com/${"a".repeat(2_100)}` }, "avatar"],
      [{ ...profileBody, location: "x".repeat(201) }, "location"],
      [{ ...profileBody, userId: "u".repeat(65) }, "userId"],
      [{ ...profileBody, amount: -5 }, "amount"],
      [{ ...profileBody, name: undefined }, "name"],
    ];
    for (const [body, mentions] of cases) {
      const reply = await create(user.token, body);
      expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(reply.body.message).toContain(mentions);
    }
    expect(await findUserSubmission(t.core, user.user.id)).toBeNull();
  });
});

describe("reading a profile", () => {
  it("answers the owner and an admin, and 404 to anyone else or for a bad id", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const created = await create(owner.token, profileBody);
    const id = created.body.profile.profileId as string;
    const mine = await t.call("GET", `/v1/kyc/profiles/${id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    // Nothing changed since it was created: the read is the creation's reply.
    expect(mine.body.profile).toEqual(created.body.profile);
    expect((await t.call("GET", `/v1/kyc/profiles/${id}`, { token: adminToken })).status).toBe(200);
    for (const [token, path] of [
      [stranger.token, `/v1/kyc/profiles/${id}`],
      [owner.token, "/v1/kyc/profiles/00000000-0000-4000-8000-000000000000"],
      [owner.token, `/v1/kyc/profiles/${"a".repeat(300)}`],
      [owner.token, "/v1/kyc/profiles/%E2%80%A8"],
    ] as const) {
      const reply = await t.call("GET", path, { token });
      expect(reply.status, path.slice(0, 60)).toBe(404);
      expect(reply.body.code).toBe("kyc_profile_not_found");
    }
    expect((await t.call("GET", `/v1/kyc/profiles/${id}`)).status).toBe(401);
  });

  it("reads a submission started with /start as a profile without details", async () => {
    const user = await newUser();
    const started = await t.call("POST", "/api/v1/kyc/start", {
      token: user.token,
      body: { country: "FR", name: "Jean Dupont", email: "jean@example.fr", phone: "+33612345678" },
    });
    const reply = await t.call("GET", `/v1/kyc/profiles/${started.body.data.submission_id}`, { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body.profile).toMatchObject({ location: "France", avatar: null, documents: {}, amount: 50_000 });
  });
});

import { QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { IdentityNumberVerified, KycStateView } from "@fintech/core/kyc/applicant-replies";
import { identityNumberHashes } from "@fintech/core/kyc/identity-hash";
import { identityNumberClaimPartition, velocityPartition } from "@fintech/core/kyc/keys";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { changeSubmission, findUserSubmission, listHistory } from "@fintech/core/kyc/submissions";

/** The applicant's KYC API: health, countries, start, status, and each country's identity numbers. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.core.dispose());

const AADHAAR = "2341 2341 2346";
const OTHER_AADHAAR = "496858245152";
const PAN = "ABCPE1234F";
const startBody = { country: "IN", name: "Asha Rao", email: "Asha@Example.com", phone: "+919876543210" };

let users = 0;
async function newUser(): Promise<Session> {
  users += 1;
  return t.signUp(`kyc-applicant-${users}@example.com`);
}
async function started(body: Record<string, unknown> = startBody): Promise<Session> {
  const user = await newUser();
  const reply = await t.call("POST", "/api/v1/kyc/start", { token: user.token, body, ip: nextTestAddress() });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return user;
}
const verify = (user: Session, type: "aadhaar" | "pan", body: unknown) =>
  t.call("POST", `/api/v1/kyc/verify/${type}`, { token: user.token, body });
const status = (user: Session) => t.call("GET", "/api/v1/kyc/status", { token: user.token });
async function tableText(): Promise<string> {
  const reply = await t.core.db.doc.send(new ScanCommand({ TableName: t.core.db.table }));
  return JSON.stringify(reply.Items ?? []);
}

describe("who may call", () => {
  it("answers 401 without a token on every route", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/kyc/"],
      ["GET", "/api/v1/kyc/countries"],
      ["POST", "/api/v1/kyc/start"],
      ["GET", "/api/v1/kyc/status"],
      ["POST", "/api/v1/kyc/verify/aadhaar"],
      ["POST", "/api/v1/kyc/verify/pan"],
    ] as const) {
      const reply = await t.call(method, path, method === "POST" ? { body: {} } : {});
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe("health and countries", () => {
  it("reports the store really answering", async () => {
    const user = await newUser();
    const reply = await t.call("GET", "/api/v1/kyc/", { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, service: "kyc", database: { connected: true } });
  });

  it("lists every country, searches by name or code, and bounds the search", async () => {
    const user = await newUser();
    const all = await t.call("GET", "/api/v1/kyc/countries", { token: user.token });
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.total).toBe(all.body.countries.length);
    expect(all.body.total).toBeGreaterThan(220);
    expect(all.body.countries[0]).toMatchObject({ country: "Afghanistan", countryCode: "AF", listed: true });
    const india = await t.call("GET", "/api/v1/kyc/countries?search=iNd", { token: user.token });
    expect(india.body.countries.map((country: { countryCode: string }) => country.countryCode)).toEqual(
      expect.arrayContaining(["IN", "ID"]),
    );
    const byCode = await t.call("GET", "/api/v1/kyc/countries?search=gb", { token: user.token });
    expect(byCode.body.countries[0]).toMatchObject({
      countryCode: "GB",
      popular: true,
      documentTypes: ["passport", "idCard", "driverLicense"],
    });
    expect(byCode.body.countries[0].identityNumbers).toEqual([
      { type: "gb_nino", label: "National Insurance number", required: false, format: "QQ 12 34 56 C" },
    ]);
    const byCountry = Object.fromEntries(
      (
        all.body.countries as {
          countryCode: string;
          identityNumbers: { type: string; required: boolean }[];
          documentTypes: string[];
        }[]
      ).map((country) => [country.countryCode, country]),
    );
    expect(byCountry.IN!.identityNumbers.map((number) => [number.type, number.required])).toEqual([
      ["aadhaar", true],
      ["pan", true],
    ]);
    expect(byCountry.US!.identityNumbers.map((number) => [number.type, number.required])).toEqual([["us_ssn", false]]);
    expect(byCountry.JP!.identityNumbers).toEqual([]);
    expect(byCountry.KE).toMatchObject({ documentTypes: ["passport", "idCard"], identityNumbers: [] });
    const none = await t.call("GET", "/api/v1/kyc/countries?search=zzzz", { token: user.token });
    expect(none.body).toEqual({ success: true, countries: [], total: 0 });
    const tooLong = await t.call("GET", `/api/v1/kyc/countries?search=${"a".repeat(101)}`, { token: user.token });
    expect(tooLong.status).toBe(400);
  });
});

describe("starting", () => {
  it("answers kyc_not_started before a start", async () => {
    const user = await newUser();
    const reply = await status(user);
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe("kyc_not_started");
  });

  it("starts once, with the state, the stream's first events and the velocity items; a second start is a 409", async () => {
    const user = await newUser();
    const ip = nextTestAddress();
    const device = "device-1234abcd";
    const reply = await t.call("POST", "/api/v1/kyc/start", {
      token: user.token,
      body: startBody,
      ip,
      headers: { "X-Device-Id": device },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.message).toBe(KYC_MESSAGES.started("India"));
    expect(reply.body.data).toMatchObject({
      user_id: user.user.id,
      country: "IN",
      location: "India",
      status: "pending",
      progress: 0,
      documents: {},
      identity_numbers: {},
    });
    expect(reply.body.data.next_steps).toEqual([
      expect.stringContaining("Upload an identity document"),
      "Verify your Aadhaar number",
      "Verify your PAN",
    ]);
    expect(reply.body.data.remaining_steps).toEqual(["document", "aadhaar", "pan"]);
    // The documented shape exactly: nothing internal (risk score, level, reasons, origin, hashes) leaks out.
    expect(() => KycStateView.strict().parse(reply.body.data)).not.toThrow();
    for (const internal of ["risk", "risk_score", "risk_level", "priority", "origin"])
      expect(reply.body.data).not.toHaveProperty(internal);

    const submission = (await findUserSubmission(t.core, user.user.id))!;
    expect(submission).toMatchObject({
      email: "asha@example.com",
      amount: 50_000,
      origin: { ip, email_domain: "example.com" },
    });
    const history = await listHistory(t.core, submission.id);
    expect(history[0]).toMatchObject({
      action: "started",
      from: null,
      to: "pending",
      event: { type: "verificationStarted", data: { country: "IN" } },
    });
    expect(history.some((entry) => entry.event?.type === "riskAssessmentUpdate")).toBe(true);

    for (const [kind, value] of [
      ["ip", ip],
      ["email_domain", "example.com"],
      ["device", device],
    ] as const) {
      const items = await t.core.db.doc.send(
        new QueryCommand({
          TableName: t.core.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": velocityPartition(kind, value) },
        }),
      );
      expect(
        (items.Items ?? []).filter((item) => item.submission_id === submission.id),
        kind,
      ).toHaveLength(1);
    }

    const again = await t.call("POST", "/api/v1/kyc/start", {
      token: user.token,
      body: { ...startBody, country: "US" },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("already has a KYC submission");
    expect((await findUserSubmission(t.core, user.user.id))?.version).toBe(submission.version);
  });

  it("refuses bad or oversized fields with a clear 400 and starts nothing", async () => {
    const user = await newUser();
    const cases: [unknown, string][] = [
      [{ ...startBody, country: "XX" }, "country"],
      [{ ...startBody, country: "INDIA" }, "country"],
      [{ ...startBody, country: 356 }, "country"],
      [{ ...startBody, name: "" }, "name"],
      [{ ...startBody, name: "x".repeat(201) }, "name"],
      [{ ...startBody, email: "not-an-email" }, "email"],
      [{ ...startBody, email: `${"a".repeat(250)}@example.com` }, "email"],
      [{ ...startBody, phone: "12345" }, "phone"],
      [{ ...startBody, phone: "+1".padEnd(22, "5") }, "phone"],
      [{ ...startBody, phone: "call me" }, "phone"],
      [{ ...startBody, amount: -1 }, "amount"],
      [{ ...startBody, amount: 1.5 }, "amount"],
      [{ ...startBody, amount: "50000" }, "amount"],
      [{ ...startBody, amount: 1e12 }, "amount"],
      [{ country: "IN" }, "name"],
      [[startBody], "JSON object"],
      ["not json", "valid JSON"],
    ];
    for (const [body, mentions] of cases) {
      const reply = await t.call("POST", "/api/v1/kyc/start", { token: user.token, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.message, JSON.stringify(body)).toContain(mentions);
    }
    expect((await status(user)).status).toBe(404);
  });
});

describe("Aadhaar and PAN", () => {
  it("refuses a bad number with the documented message and changes nothing", async () => {
    const user = await started();
    const before = (await findUserSubmission(t.core, user.user.id))!;
    const cases: ["aadhaar" | "pan", unknown][] = [
      ["aadhaar", { document_number: "234123412347", country: "IN" }],
      ["aadhaar", { document_number: "134123412346" }],
      ["aadhaar", { document_number: "2341234123" }],
      ["aadhaar", { document_number: 234123412346 }],
      ["aadhaar", { document_number: "2".repeat(10_000) }],
      ["aadhaar", {}],
      ["pan", { document_number: "ABCDE1234F" }],
      ["pan", { document_number: "ABCPE12345" }],
      ["pan", { document_number: null }],
    ];
    for (const [type, body] of cases) {
      const reply = await verify(user, type, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({
        message: type === "aadhaar" ? KYC_MESSAGES.invalidAadhaar : KYC_MESSAGES.invalidPan,
        code: `invalid_${type}`,
      });
    }
    const mismatch = await verify(user, "aadhaar", { document_number: AADHAAR, country: "US" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe("country_mismatch");
    expect((await verify(user, "aadhaar", "[1,2]")).status).toBe(400);
    expect((await findUserSubmission(t.core, user.user.id))?.version).toBe(before.version);
  });

  it("needs a started KYC", async () => {
    const user = await newUser();
    const reply = await verify(user, "aadhaar", { document_number: AADHAAR, country: "IN" });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe("kyc_not_started");
  });

  it("verifies, stores only the masked number and a keyed hash, adds progress, and is idempotent", async () => {
    const user = await started();
    const aadhaar = await verify(user, "aadhaar", { document_number: AADHAAR, country: "IN" });
    expect(aadhaar.status).toBe(200);
    expect(aadhaar.body).toEqual({
      message: "AADHAAR verified successfully!",
      data: {
        valid: true,
        status: "verified",
        document_type: "aadhaar",
        masked: "XXXX XXXX 2346",
        progress: 25,
        kyc_status: "pending",
      },
    });
    const submission = (await findUserSubmission(t.core, user.user.id))!;
    const entries = (await listHistory(t.core, submission.id)).length;
    const again = await verify(user, "aadhaar", { document_number: "234123412346" });
    expect(again.body.data).toMatchObject({ masked: "XXXX XXXX 2346", progress: 25 });
    expect((await listHistory(t.core, submission.id)).length).toBe(entries);

    const pan = await verify(user, "pan", { document_number: "abcpe 1234f", country: "in" });
    expect(pan.body).toMatchObject({
      message: "PAN verified successfully!",
      data: { masked: "XXXXXX234F", progress: 50 },
    });
    expect(() => IdentityNumberVerified.strict().parse(pan.body.data)).not.toThrow();
    const state = await status(user);
    expect(() => KycStateView.strict().parse(state.body.data)).not.toThrow();
    expect(state.body.data.identity_numbers).toEqual({
      aadhaar: { masked: "XXXX XXXX 2346", verified_at: expect.any(String) },
      pan: { masked: "XXXXXX234F", verified_at: expect.any(String) },
    });
    expect(state.body.data.next_steps).toEqual([expect.stringContaining("Upload an identity document")]);
    const history = await listHistory(t.core, submission.id);
    expect(
      history.filter((entry) => entry.event?.type === "documentVerified").map((entry) => entry.event?.data),
    ).toEqual([
      { documentType: "aadhaar", status: "VERIFIED", confidence: 1 },
      { documentType: "pan", status: "VERIFIED", confidence: 1 },
    ]);
    const text = await tableText();
    expect(text).not.toContain("234123412346");
    expect(text).not.toContain(PAN);
  });

  it("verifies the same Aadhaar for two users and records both claims for the risk engine", async () => {
    const first = await started();
    const second = await started();
    for (const user of [first, second])
      expect((await verify(user, "aadhaar", { document_number: OTHER_AADHAAR })).status).toBe(200);
    const hash = identityNumberHashes(t.core, "aadhaar", OTHER_AADHAAR)[0]!.hash;
    const claims = await t.core.db.doc.send(
      new QueryCommand({
        TableName: t.core.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": identityNumberClaimPartition("aadhaar", hash) },
      }),
    );
    expect((claims.Items ?? []).map((item) => item.user_id).sort()).toEqual([first.user.id, second.user.id].sort());
  });

  it("refuses a new number once the submission is under review, but answers the recorded one", async () => {
    const user = await started();
    await verify(user, "aadhaar", { document_number: AADHAAR });
    const submission = (await findUserSubmission(t.core, user.user.id))!;
    await changeSubmission(t.core, submission.id, (current) => ({
      next: { ...current, status: "under_review" },
      entries: [
        {
          actor: { id: "test", name: "Test", role: "system" },
          action: "test",
          from: "pending",
          to: "under_review",
          note: null,
          event: null,
        },
      ],
    }));
    const changed = await verify(user, "aadhaar", { document_number: OTHER_AADHAAR });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe("kyc_not_editable");
    expect((await verify(user, "aadhaar", { document_number: AADHAAR })).status).toBe(200);
    expect((await status(user)).body.data).toMatchObject({
      status: "under_review",
      next_steps: ["Wait for a reviewer's decision"],
    });
  });
});

/** A passport photo that passes the image checks, uploaded as the wizard does. */
async function uploadPassport(user: Session, seed: number) {
  const form = new FormData();
  form.append("document_type", "passport");
  form.append(
    "file",
    new Blob([new Uint8Array(await sampleDocumentImage({ seed }))], { type: "image/png" }),
    "passport.png",
  );
  const response = await t.app.request("/api/v1/kyc/upload", {
    method: "POST",
    body: form,
    headers: { Authorization: `Bearer ${user.token}` },
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

const startIn = (country: string, phone = "+12025550143") =>
  started({ country, name: "Sam Doe", email: "sam@example.com", phone });

describe("KYC for every country", () => {
  it("a US applicant finishes with a passport alone: no Aadhaar, no PAN, the SSN optional", async () => {
    const user = await startIn("US");
    const start = await status(user);
    expect(start.body.data).toMatchObject({
      country: "US",
      identity_number_requirements: [
        { type: "us_ssn", label: "Social Security number (SSN)", required: false, format: "123-45-6789" },
      ],
      remaining_steps: ["document"],
      next_steps: [expect.stringContaining("Upload an identity document")],
    });
    expect(JSON.stringify(start.body.data.next_steps)).not.toMatch(/Aadhaar|PAN/);

    // India's numbers are not part of a US submission.
    const aadhaar = await verify(user, "aadhaar", { document_number: AADHAAR });
    expect(aadhaar.status).toBe(400);
    expect(aadhaar.body).toEqual({
      code: "identity_number_not_asked",
      message:
        "The Aadhaar number is not part of KYC for United States of America; it asks for: Social Security number (SSN)",
    });

    await uploadPassport(user, 4_401);
    const done = await status(user);
    expect(done.body.data).toMatchObject({
      status: "under_review",
      remaining_steps: [],
      next_steps: ["Wait for a reviewer's decision"],
      identity_numbers: {},
    });
    const submission = (await findUserSubmission(t.core, user.user.id))!;
    expect((await listHistory(t.core, submission.id)).at(-1)).toMatchObject({
      action: "submitted_for_review",
      to: "under_review",
    });
  });

  it("a US applicant may give an SSN before the document: checked, masked, hashed, then the passport finishes", async () => {
    const user = await startIn("US");
    const malformed = await t.call("POST", "/api/v1/kyc/identity-numbers/us_ssn/verify", {
      token: user.token,
      body: { document_number: "666-12-3456" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      code: "invalid_identity_number",
      message: "Please enter a valid Social Security number (SSN) (e.g., 123-45-6789).",
    });
    const ssn = await t.call("POST", "/api/v1/kyc/identity-numbers/us_ssn/verify", {
      token: user.token,
      body: { document_number: "536-90-4399", country: "US" },
    });
    expect(ssn.status).toBe(200);
    expect(ssn.body).toEqual({
      message: "SSN verified successfully!",
      data: {
        valid: true,
        status: "verified",
        document_type: "us_ssn",
        masked: "XXXXX4399",
        progress: 25,
        kyc_status: "pending",
      },
    });
    expect((await status(user)).body.data).toMatchObject({
      status: "pending",
      identity_numbers: { us_ssn: { masked: "XXXXX4399" } },
      remaining_steps: ["document"],
    });
    expect(await tableText()).not.toContain("536904399");
    await uploadPassport(user, 4_402);
    expect((await status(user)).body.data.status).toBe("under_review");
  });

  it("an Indian applicant is still asked for both Aadhaar and PAN: the document alone does not finish", async () => {
    const user = await started();
    await uploadPassport(user, 4_403);
    expect((await status(user)).body.data).toMatchObject({
      status: "pending",
      remaining_steps: ["aadhaar", "pan"],
      next_steps: ["Verify your Aadhaar number", "Verify your PAN"],
    });
    expect((await verify(user, "aadhaar", { document_number: AADHAAR })).status).toBe(200);
    expect((await status(user)).body.data).toMatchObject({ status: "pending", remaining_steps: ["pan"] });
    expect((await verify(user, "pan", { document_number: PAN })).body.data.kyc_status).toBe("under_review");
    expect((await status(user)).body.data).toMatchObject({ status: "under_review", remaining_steps: [] });
  });

  it("a country with a published number refuses a malformed one with a clear 400 and changes nothing; its valid one counts", async () => {
    const user = await startIn("BR", "+5511912345678");
    const before = (await findUserSubmission(t.core, user.user.id))!;
    expect(before.country).toBe("BR");
    for (const malformed of ["231.002.999-00", "390.533.447-06", "1234", "x".repeat(65), ""]) {
      const reply = await t.call("POST", "/api/v1/kyc/identity-numbers/br_cpf/verify", {
        token: user.token,
        body: { document_number: malformed },
      });
      expect(reply.status, malformed).toBe(400);
      expect(reply.body.code, malformed).toBe("invalid_identity_number");
      expect(reply.body.message).toBe("Please enter a valid CPF (e.g., 123.456.789-09).");
    }
    expect((await findUserSubmission(t.core, user.user.id))?.version).toBe(before.version);
    // Another country's number, even well formed, is not Brazil's.
    expect(
      (
        await t.call("POST", "/api/v1/kyc/identity-numbers/us_ssn/verify", {
          token: user.token,
          body: { document_number: "536-90-4399" },
        })
      ).body.code,
    ).toBe("identity_number_not_asked");
    await uploadPassport(user, 4_404);
    expect((await status(user)).body.data).toMatchObject({
      status: "pending",
      remaining_steps: ["br_cpf"],
      next_steps: ["Verify your CPF"],
    });
    const cpf = await t.call("POST", "/api/v1/kyc/identity-numbers/br_cpf/verify", {
      token: user.token,
      body: { document_number: "390.533.447-05" },
    });
    expect(cpf.body).toMatchObject({
      message: "CPF verified successfully!",
      data: { masked: "XXXXXXX4705", kyc_status: "under_review" },
    });
  });

  it("finds the same number on two users whatever separators each typed (one claim partition per type)", async () => {
    const first = await startIn("BR", "+5511912345601");
    const second = await startIn("BR", "+5511912345602");
    expect(
      (
        await t.call("POST", "/api/v1/kyc/identity-numbers/br_cpf/verify", {
          token: first.token,
          body: { document_number: "529.982.247-25" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.call("POST", "/api/v1/kyc/identity-numbers/br_cpf/verify", {
          token: second.token,
          body: { document_number: "52998224725" },
        })
      ).status,
    ).toBe(200);
    const hash = identityNumberHashes(t.core, "br_cpf", "52998224725")[0]!.hash;
    const claims = await t.core.db.doc.send(
      new QueryCommand({
        TableName: t.core.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": identityNumberClaimPartition("br_cpf", hash) },
      }),
    );
    expect((claims.Items ?? []).map((item) => item.user_id).sort()).toEqual([first.user.id, second.user.id].sort());
  });

  it("a country of the default requirements takes a passport or an ID card and no number", async () => {
    const user = await startIn("KE", "+254712345678");
    expect((await status(user)).body.data).toMatchObject({
      document_types: ["passport", "idCard"],
      identity_number_requirements: [],
      remaining_steps: ["document"],
    });
    await uploadPassport(user, 4_405);
    expect((await status(user)).body.data.status).toBe("under_review");
  });

  it("answers an unknown number type with 404 and needs a token", async () => {
    const user = await startIn("US");
    for (const type of ["ssn", "constructor", "__proto__", "x".repeat(300), encodeURIComponent("us ssn")]) {
      const reply = await t.call("POST", `/api/v1/kyc/identity-numbers/${type}/verify`, {
        token: user.token,
        body: { document_number: "536-90-4399" },
      });
      expect(reply.status, type).toBe(404);
      expect(reply.body.code, type).toBe("identity_number_type_not_found");
    }
    expect(
      (await t.call("POST", "/api/v1/kyc/identity-numbers/us_ssn/verify", { body: { document_number: "536-90-4399" } }))
        .status,
    ).toBe(401);
  });
});

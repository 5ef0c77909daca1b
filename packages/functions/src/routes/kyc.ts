import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { deviceIdOf, startKyc } from "@fintech/core/kyc/start";
import { IdentityNumberVerified, KycStateView } from "@fintech/core/kyc/applicant-replies";
import { kycHealth, KycHealthReply } from "@fintech/core/kyc/health";
import { kycState, stateOf } from "@fintech/core/kyc/applicant-state";
import { StartKycInput, VerifyIdentityNumberInput, type StartOrigin } from "@fintech/core/kyc/applicant-inputs";
import { verifyIdentityNumber } from "@fintech/core/kyc/identity-number-steps";
import { searchCountries } from "@fintech/core/kyc/countries";
import { describeIdentityNumbers } from "@fintech/core/kyc/country-requirements";
import { IDENTITY_NUMBER_KINDS, isIdentityNumberType } from "@fintech/core/kyc/identity-numbers";
import { DocumentType, IDENTITY_NUMBER_TYPES, IdentityNumberType, KYC_MESSAGES } from "@fintech/core/kyc/model";
import { notFound, SERVICE_UNAVAILABLE_RETRY_SECONDS } from "@fintech/core/shared/errors";
import { clientIp } from "../http/client-ip";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import {
  authenticated,
  errors,
  jsonBody,
  jsonReply,
  pathParameter,
  queryParameters,
  RETRY_AFTER,
  TAGS,
} from "../http/openapi";
import { EXAMPLE_IDS } from "../http/reply-schemas";
import { queryWith, readJson } from "../http/validate";

/**
 * The applicant's KYC API (docs/product/kyc.md#calls): health, countries, start, status, and the identity-number
 * steps each country asks for (Aadhaar and PAN for India). Documents are in kyc-documents.ts, the
 * reviewer's routes in kyc-review.ts. Nothing here replies with a risk signal.
 */

/** The header a client may send with a stable id of its device, for the velocity rules. */
export const DEVICE_HEADER = "X-Device-Id";

/** Where a request came from, as the velocity rules count it. */
export function originOf(c: Context<AppEnv>): StartOrigin {
  const ip = clientIp(c);
  return { ip: ip === "unknown" ? null : ip, device: deviceIdOf(c.req.header(DEVICE_HEADER)) };
}

/** 200 while the store answers, else 503 with Retry-After (like GET /health). */
export async function kycHealthReply(c: Context<AppEnv>, service: string) {
  const report = await kycHealth(c.get("core"), service);
  if (!report.success) c.header("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_SECONDS));
  return c.json(report, report.success ? 200 : 503);
}

const CountriesQuery = z.object({
  search: z
    .string()
    .max(100, "search must be at most 100 characters")
    .optional()
    .describe("Case-insensitive substring of the name or ISO code; empty returns all"),
});

const CountryEntry = z.object({
  country: z.string(),
  countryCode: z.string(),
  flag: z.string(),
  supportedDocuments: z.partialRecord(DocumentType, z.literal(1)),
  documentTypes: z.array(DocumentType),
  popular: z.boolean(),
  listed: z
    .boolean()
    .describe(
      "One of the 30 countries of the built-in list, each with its own requirements; the others take a passport or a national ID card and no number",
    ),
  identityNumbers: z
    .array(z.object({ type: IdentityNumberType, label: z.string(), required: z.boolean(), format: z.string() }))
    .describe("The identity numbers KYC asks for in this country, in order; `required: false` may be skipped"),
});

/* ---------- examples ---------- */

export const kycStateExample = {
  submission_id: EXAMPLE_IDS.kycSubmission,
  user_id: EXAMPLE_IDS.user,
  country: "IN",
  location: "India",
  status: "pending",
  progress: 25,
  document_types: ["passport", "idCard", "driverLicense", "residencePermit"],
  documents: {},
  identity_number_requirements: describeIdentityNumbers("IN"),
  identity_numbers: { aadhaar: { masked: "XXXX XXXX 2346", verified_at: "2026-01-15T10:02:00.000Z" } },
  remaining_steps: ["document", "pan"],
  next_steps: [
    "Upload an identity document (Passport, National ID Card, Driver's License, Residence Permit)",
    "Verify your PAN",
  ],
  info_request: null,
  submitted_at: "2026-01-15T10:00:00.000Z",
  updated_at: "2026-01-15T10:02:00.000Z",
  verified_at: null,
};

/** The health route's replies, for this module's GET / and the stream's GET /health. */
export function kycHealthResponses(service: string) {
  const example = {
    success: true,
    service,
    status: "ok",
    message: "All systems operational",
    time: "2026-01-15T10:00:00.000Z",
    database: { connected: true, latency_ms: 4 },
    storage: { connected: true, latency_ms: 3 },
  };
  return {
    200: jsonReply("The KYC service answers", "KycHealthReply", KycHealthReply, example),
    503: jsonReply(
      "The KYC store cannot be reached",
      "KycHealthReply",
      KycHealthReply,
      {
        ...example,
        success: false,
        status: "error",
        message: "Database unavailable",
        database: { connected: false, latency_ms: 2001 },
      },
      RETRY_AFTER,
    ),
    ...errors({ 401: true }),
  };
}

/* ---------- declarations ---------- */

const kyc = { tags: [TAGS.kyc] as [typeof TAGS.kyc], "x-stability": "stable" as const, security: authenticated };

const healthRoute = createRoute({
  ...kyc,
  method: "get",
  path: "/",
  operationId: "getKycHealth",
  summary: "KYC service health",
  description:
    "Asks the KYC store (the table) and the document bucket. `success` is true while the store answers; 503 with Retry-After when it does not.",
  "x-complexity": "medium",
  responses: kycHealthResponses("kyc"),
});

const countriesRoute = createRoute({
  ...kyc,
  method: "get",
  path: "/countries",
  operationId: "listKycCountries",
  summary: "Countries KYC supports",
  description:
    "The 30 countries of the built-in list with their document types (docs/product/kyc.md#data) and the identity numbers each asks for (`identityNumbers`: Aadhaar and PAN for India, e.g. an optional SSN for the United States, none for Japan), then every other ISO 3166-1 country, which accepts a passport or a national ID card and asks for no number. `search` matches name or code, case-insensitively; the popular ones (US, GB, DE, FR, IT, ES, CA, AU, IN, BR) are marked.",
  "x-complexity": "low",
  parameters: queryParameters(CountriesQuery),
  responses: {
    200: jsonReply(
      "The matching countries",
      "KycCountriesReply",
      z.object({ success: z.literal(true), countries: z.array(CountryEntry), total: z.number().int() }),
      {
        success: true,
        countries: [
          {
            country: "India",
            countryCode: "IN",
            flag: "🇮🇳",
            supportedDocuments: { passport: 1, idCard: 1, driverLicense: 1, residencePermit: 1 },
            documentTypes: ["passport", "idCard", "driverLicense", "residencePermit"],
            popular: true,
            listed: true,
            identityNumbers: describeIdentityNumbers("IN"),
          },
        ],
        total: 1,
      },
    ),
    ...errors({ 400: ["validation_error"], 401: true }),
  },
});

const startRoute = createRoute({
  ...kyc,
  method: "post",
  path: "/start",
  operationId: "startKyc",
  summary: "Start KYC",
  description:
    "Starts the caller's KYC submission for a country (one active submission per user; a second start is a 409 whose message contains 'already has a KYC submission'; after a rejection a new one may start). `amount` (INR, whole rupees) defaults to 50000. An optional `X-Device-Id` header (8-128 of `A-Za-z0-9._:-`) counts toward the device velocity rule, as the client address and e-mail domain do. Announces `verificationStarted` on the KYC stream. The reply's state says what the country asks for (`document_types`, `identity_number_requirements`) and what remains (`remaining_steps`).",
  "x-complexity": "medium",
  request: {
    body: jsonBody("StartKycInput", StartKycInput, {
      country: "IN",
      name: "Asha Rao",
      email: "asha@example.com",
      phone: "+919876543210",
    }),
  },
  responses: {
    201: jsonReply("Started: the KYC state", "KycStartReply", z.object({ message: z.string(), data: KycStateView }), {
      message: KYC_MESSAGES.started("India"),
      data: { ...kycStateExample, progress: 0, identity_numbers: {} },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      409: ["kyc_already_started"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const statusRoute = createRoute({
  ...kyc,
  method: "get",
  path: "/status",
  operationId: "getKycStatus",
  summary: "The caller's KYC state",
  description:
    "The KYC state of docs/product/kyc.md#data: status, progress, documents by type (status, verified_at, and the problems of a document that failed its checks), the identity numbers the country asks for (`identity_number_requirements`) and the masked ones verified, what is left before review (`remaining_steps`: `document` and required number types, in order; `next_steps` in words), an open request from a reviewer. No risk score, level or flag: applicants are told what to do next, never which check fired. 404 `kyc_not_started` before any start.",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The KYC state", "KycStatusReply", z.object({ data: KycStateView }), { data: kycStateExample }),
    ...errors({ 401: true, 404: ["kyc_not_started"], 503: true }),
  },
});

const numberExample: Record<"aadhaar" | "pan" | "us_ssn", string> = {
  aadhaar: "2341 2341 2346",
  pan: "ABCPE1234F",
  us_ssn: "536-90-4399",
};
const maskedExample: Record<"aadhaar" | "pan" | "us_ssn", string> = {
  aadhaar: "XXXX XXXX 2346",
  pan: "XXXXXX234F",
  us_ssn: "XXXXX4399",
};

const VERIFY_COMMON =
  "A malformed number is a 400 with its message and changes nothing; a number the submission's country does not ask for is a 400 `identity_number_not_asked`. Only the number masked to its last four and keyed hashes are stored; the same number on another user is a risk flag (for reviewers). Verifying the recorded number again changes nothing. Adds 25 to progress; announces `documentVerified` on the KYC stream. `country`, when sent, must be the submission's.";

const IdentityNumberVerifiedReply = z.object({ message: z.string(), data: IdentityNumberVerified });

const verifyReply = (type: "aadhaar" | "pan" | "us_ssn") =>
  jsonReply("Verified", "IdentityNumberVerifiedReply", IdentityNumberVerifiedReply, {
    message: KYC_MESSAGES.documentVerified(IDENTITY_NUMBER_KINDS[type].toastName),
    data: {
      valid: true,
      status: "verified",
      document_type: type,
      masked: maskedExample[type],
      progress: 25,
      kyc_status: "pending",
    },
  });

const verifyErrors = (invalid: string[], notFoundCodes: string[]) =>
  errors({
    400: [...invalid, "identity_number_not_asked", "country_mismatch", "validation_error", "invalid_json"],
    401: true,
    404: notFoundCodes,
    409: ["kyc_not_editable"],
    413: ["payload_too_large"],
    503: true,
  });

const verifyRoute = (type: "aadhaar" | "pan") =>
  createRoute({
    ...kyc,
    method: "post",
    path: `/verify/${type}`,
    operationId: type === "aadhaar" ? "verifyAadhaar" : "verifyPan",
    summary: type === "aadhaar" ? "Verify an Aadhaar number" : "Verify a PAN",
    description: `India. ${IDENTITY_NUMBER_KINDS[type].check}. ${VERIFY_COMMON}`,
    "x-complexity": "medium",
    request: {
      body: jsonBody("VerifyIdentityNumberInput", VerifyIdentityNumberInput, {
        document_number: numberExample[type],
        country: "IN",
      }),
    },
    responses: { 200: verifyReply(type), ...verifyErrors([`invalid_${type}`], ["kyc_not_started"]) },
  });

const verifyAnyRoute = createRoute({
  ...kyc,
  method: "post",
  path: "/identity-numbers/{type}/verify",
  operationId: "verifyIdentityNumber",
  summary: "Verify an identity number",
  description: `Any identity number the submission's country asks for (GET /countries \`identityNumbers\`, GET /status \`identity_number_requirements\`), by its type, e.g. \`us_ssn\`, \`gb_nino\`, \`br_cpf\`, \`de_idnr\`; Aadhaar and PAN also have their own paths, /verify/aadhaar and /verify/pan (docs/product/kyc.md#calls). Each type's format and check digits are checked (docs/trust-and-safety.md lists them); a malformed number is a 400 \`invalid_identity_number\` naming the format (Aadhaar and PAN keep \`invalid_aadhaar\` and \`invalid_pan\`). An unknown type is a 404 \`identity_number_type_not_found\`. ${VERIFY_COMMON}`,
  "x-complexity": "medium",
  parameters: [
    {
      ...pathParameter("type", "The identity number's type", "us_ssn"),
      schema: { type: "string" as const, enum: [...IDENTITY_NUMBER_TYPES] },
    },
  ],
  request: {
    body: jsonBody("VerifyIdentityNumberInput", VerifyIdentityNumberInput, {
      document_number: numberExample.us_ssn,
      country: "US",
    }),
  },
  responses: {
    200: verifyReply("us_ssn"),
    ...verifyErrors(
      ["invalid_identity_number", "invalid_aadhaar", "invalid_pan"],
      ["kyc_not_started", "identity_number_type_not_found"],
    ),
  },
});

async function verifyHandler(c: Context<AppEnv>, type: IdentityNumberType) {
  const data = await verifyIdentityNumber(c.get("core"), c.get("auth").userId, type, await readJson(c));
  return c.json({ message: KYC_MESSAGES.documentVerified(IDENTITY_NUMBER_KINDS[type].toastName), data }, 200);
}

/** The type named in the path, or 404: a bounded, known id before it reaches anything else. */
function pathNumberType(c: Context<AppEnv>): IdentityNumberType {
  const type = c.req.param("type") ?? "";
  if (!isIdentityNumberType(type))
    throw notFound(
      "No such identity number type: see identityNumbers in GET /api/v1/kyc/countries",
      "identity_number_type_not_found",
    );
  return type;
}

export const kycRoutes = new OpenAPIHono<AppEnv>()
  .openapi({ ...healthRoute, middleware: [requireAuth] as const }, (c) => kycHealthReply(c, "kyc"))
  .openapi({ ...countriesRoute, middleware: [requireAuth] as const }, (c) => {
    const countries = searchCountries(queryWith(c, CountriesQuery).search).map((country) => ({
      ...country,
      identityNumbers: describeIdentityNumbers(country.countryCode),
    }));
    return c.json({ success: true as const, countries, total: countries.length }, 200);
  })
  .openapi({ ...startRoute, middleware: [requireAuth] as const }, async (c) => {
    const submission = await startKyc(c.get("core"), c.get("auth").userId, await readJson(c), originOf(c));
    return c.json({ message: KYC_MESSAGES.started(submission.location), data: stateOf(submission) }, 201);
  })
  .openapi({ ...statusRoute, middleware: [requireAuth] as const }, async (c) =>
    c.json({ data: await kycState(c.get("core"), c.get("auth").userId) }, 200),
  )
  .openapi({ ...verifyRoute("aadhaar"), middleware: [requireAuth] as const }, (c) => verifyHandler(c, "aadhaar"))
  .openapi({ ...verifyRoute("pan"), middleware: [requireAuth] as const }, (c) => verifyHandler(c, "pan"))
  .openapi({ ...verifyAnyRoute, middleware: [requireAuth] as const }, (c) => verifyHandler(c, pathNumberType(c)));

import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { createProfile, CreateProfileInput, getProfile, KycProfileView } from "@fintech/core/kyc/profiles";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, TAGS } from "../http/openapi";
import { EXAMPLE_IDS } from "../http/reply-schemas";
import { readJson } from "../http/validate";
import { originOf } from "./kyc";

/**
 * KYC profiles of the payment and KYC backend (docs/product/payments.md#kyc-profiles): `/v1/kyc/profiles`. A profile is
 * a way to start the caller's KYC submission in one call (its id is the submission's), with an
 * avatar and document details (numbers masked) kept beside it; files go through the uploads.
 */

const ProfileReply = z.object({ profile: KycProfileView });

const PROFILE_ID = "0b6f3c2a-9d1e-4f5a-8b7c-6d5e4f3a2b1c";
const passport = { issuingCountry: "IN", expiryDate: "2031-04-30" };
/** What a client sends; the reply repeats it (the number masked) with the submission's figures. */
const createExample = {
  userId: EXAMPLE_IDS.user,
  name: "Asha Rao",
  email: "asha@example.com",
  phone: "+919876543210",
  country: "IN",
  location: "Mumbai, India",
  amount: 50_000,
  documents: { passport: { documentNumber: "Z1234567", ...passport } },
  avatar: "https://cdn.example.com/avatars/asha.png",
};
const profileExample = {
  ...createExample,
  profileId: PROFILE_ID,
  documents: { passport: { documentNumber: "XXXX4567", ...passport, status: "not_uploaded" } },
  status: "pending",
  progress: 0,
  createdAt: "2026-01-15T10:00:00.000Z",
  updatedAt: "2026-01-15T10:00:00.000Z",
};

const profiles = { tags: [TAGS.kyc] as [typeof TAGS.kyc], "x-stability": "stable" as const, security: authenticated };

const createProfileRoute = createRoute({
  ...profiles,
  method: "post",
  path: "/",
  operationId: "createKycProfile",
  summary: "Create a KYC profile",
  description:
    "Starts the caller's KYC from a profile (as POST /api/v1/kyc/start, one active submission per user: a second is a 409 whose message contains 'already has a KYC submission'). `userId`, when sent, must be the caller's (else 403). `documents` are keyed by document type and hold details only (number, issuing country, expiry date); each type must be accepted for the country; numbers are stored masked to their last four. The reply's `profile.profileId` is the submission's id.",
  "x-complexity": "medium",
  request: {
    body: jsonBody("CreateKycProfileInput", CreateProfileInput, createExample),
  },
  responses: {
    201: jsonReply("The profile", "KycProfileReply", ProfileReply, { profile: profileExample }),
    ...errors({
      400: ["validation_error", "invalid_json", "unsupported_document_type"],
      401: true,
      403: ["forbidden"],
      409: ["kyc_already_started"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const getProfileRoute = createRoute({
  ...profiles,
  method: "get",
  path: "/{id}",
  operationId: "getKycProfile",
  summary: "Get a KYC profile",
  description:
    "The caller's own profile, with its submission's current status and progress (no risk signal: reviewers read those in the review routes); an administrator may read any. Another user's id is a 404, as an unknown one.",
  "x-complexity": "low",
  parameters: [pathParameter("id", "The profile's id (profile.profileId)", PROFILE_ID)],
  responses: {
    200: jsonReply("The profile", "KycProfileReply", ProfileReply, { profile: profileExample }),
    ...errors({ 401: true, 404: ["kyc_profile_not_found"], 503: true }),
  },
});

export const kycProfileRoutes = new OpenAPIHono<AppEnv>()
  .openapi({ ...createProfileRoute, middleware: [requireAuth] as const }, async (c) => {
    const profile = await createProfile(
      c.get("core"),
      { userId: c.get("auth").userId },
      await readJson(c),
      originOf(c),
    );
    return c.json({ profile }, 201);
  })
  .openapi({ ...getProfileRoute, middleware: [requireAuth] as const }, async (c) => {
    const auth = c.get("auth");
    return c.json(
      { profile: await getProfile(c.get("core"), { userId: auth.userId, role: auth.role }, c.req.param("id")) },
      200,
    );
  });

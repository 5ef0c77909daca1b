import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import {
  AUTH_MESSAGES,
  EmailConfirmationInput,
  EmailVerificationInput,
  ProfileUpdateInput,
} from "@fintech/core/auth/model";
import {
  confirmEmailChange,
  getProfile,
  limitAccountChange,
  resendVerification,
  updateProfile,
  verifyEmail,
} from "@fintech/core/auth/service";
import { clientIp } from "../http/client-ip";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, publicAccess, TAGS } from "../http/openapi";
import { ProfileReply, ProfileUpdatedReply, userExample } from "../http/reply-schemas";
import { jsonBody as readBody } from "../http/validate";

const getProfileRoute = createRoute({
  method: "get",
  path: "/profile",
  operationId: "getProfile",
  summary: "The signed-in user's profile",
  description: "The user the bearer token or API key acts for (never the password hash).",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth] as const,
  responses: {
    200: jsonReply("The profile", "ProfileReply", ProfileReply, { data: userExample }),
    ...errors({ 401: true, 404: ["user_not_found"], 503: true }),
  },
});

const updateProfileRoute = createRoute({
  method: "put",
  path: "/profile",
  operationId: "updateProfile",
  summary: "Update the signed-in user's profile",
  description:
    "Changes any of names, phone and date of birth at once; every field is optional and unknown fields (role among them) are refused. A new `email` needs `current_password` and only starts the change: the reply is the same 202 whether or not the address is taken, a link to confirm goes to the new address (the email changes when it is used, POST /api/v1/users/email-confirmation) and the old address is told. At most 10 profile changes per hour, 3 of them email changes (429 with Retry-After).",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  middleware: [requireAuth] as const,
  request: {
    body: jsonBody("ProfileUpdateInput", ProfileUpdateInput, { first_name: "Ada", phone: "+44 20 7946 0958" }),
  },
  responses: {
    200: jsonReply("The updated profile", "ProfileUpdatedReply", ProfileUpdatedReply, {
      message: "Profile updated",
      data: userExample,
    }),
    202: jsonReply(
      "Any other fields changed; the new email waits for its confirmation link (the profile still shows the current one)",
      "ProfileUpdatedReply",
      ProfileUpdatedReply,
      {
        message: AUTH_MESSAGES.emailChangeRequested,
        data: userExample,
      },
    ),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["invalid_current_password", "session_required"],
      404: ["user_not_found"],
      409: ["concurrent_update"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

const confirmEmailRoute = createRoute({
  method: "post",
  path: "/email-confirmation",
  operationId: "confirmEmailChange",
  summary: "Confirm a new sign-in email",
  description:
    "Completes a change of sign-in email with the token from the link sent to the new address (the web app's /confirm-email page sends it). The link works once, for an hour, and only while the account still has the email it was issued for. Needs no sign-in: the token is the proof. If the new address was taken since, the change fails (409) and nothing changes.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  request: {
    body: jsonBody("EmailConfirmationInput", EmailConfirmationInput, {
      token: "Jq3x9aB7cK2mN8pR4sT6vW1yZ5bD7fH9jLm0nP2qR4s",
    }),
  },
  responses: {
    200: jsonReply("The email is changed", "ProfileUpdatedReply", ProfileUpdatedReply, {
      message: AUTH_MESSAGES.emailChanged,
      data: userExample,
    }),
    ...errors({
      400: ["invalid_confirmation", "validation_error", "invalid_json"],
      409: ["email_taken", "concurrent_update"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

const verifyEmailRoute = createRoute({
  method: "post",
  path: "/email-verification",
  operationId: "verifyEmail",
  summary: "Verify the sign-in email",
  description:
    "Marks the account's email verified with the token from the link mailed at sign-up (the web app's /verify-email page sends it). Until then nobody can pay the account by email. The link works once, for 24 hours, and only while the account still has the address it was sent to (400 `invalid_verification` otherwise). Needs no sign-in: the token is the proof. At most 30 attempts per client address per minute.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: publicAccess,
  request: {
    body: jsonBody("EmailVerificationInput", EmailVerificationInput, {
      token: "Jq3x9aB7cK2mN8pR4sT6vW1yZ5bD7fH9jLm0nP2qR4s",
    }),
  },
  responses: {
    200: jsonReply("The email is verified", "ProfileUpdatedReply", ProfileUpdatedReply, {
      message: AUTH_MESSAGES.emailVerified,
      data: userExample,
    }),
    ...errors({
      400: ["invalid_verification", "validation_error", "invalid_json"],
      409: ["concurrent_update"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

const VerificationSentReply = z.object({ message: z.string() });

const resendVerificationRoute = createRoute({
  method: "post",
  path: "/email-verification/resend",
  operationId: "resendEmailVerification",
  summary: "Send a new verification link",
  description:
    "Mails a new verification link to the signed-in user's address while it is not verified (409 `email_already_verified` once it is). At most 3 an hour (429 with Retry-After). Needs a signed-in session: an API key is refused (403 `session_required`).",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  middleware: [requireAuth] as const,
  responses: {
    202: jsonReply("A new link is on its way", "VerificationSentReply", VerificationSentReply, {
      message: AUTH_MESSAGES.verificationSent,
    }),
    ...errors({
      401: true,
      403: ["session_required"],
      404: ["user_not_found"],
      409: ["email_already_verified"],
      429: true,
      503: true,
    }),
  },
});

/**
 * The signed-in user's profile. Changing it takes a session (an API key is refused centrally,
 * http/scopes.ts); every attempt counts against the user's profile-change limit before its body
 * is read.
 */
export const userRoutes = $(new OpenAPIHono<AppEnv>())
  .openapi(getProfileRoute, async (c) => c.json({ data: await getProfile(c.get("core"), c.get("auth").userId) }, 200))
  .openapi(updateProfileRoute, async (c) => {
    const core = c.get("core");
    const userId = c.get("auth").userId;
    await limitAccountChange(core, "profileChange", userId);
    const changes = await readBody(c, ProfileUpdateInput);
    const { user, emailChangeRequested } = await updateProfile(core, userId, changes);
    if (emailChangeRequested) return c.json({ message: AUTH_MESSAGES.emailChangeRequested, data: user }, 202);
    return c.json({ message: "Profile updated", data: user }, 200);
  })
  .openapi(confirmEmailRoute, async (c) => {
    const core = c.get("core");
    await limitAccountChange(core, "emailConfirmation", clientIp(c));
    const { token } = await readBody(c, EmailConfirmationInput);
    return c.json({ message: AUTH_MESSAGES.emailChanged, data: await confirmEmailChange(core, token) }, 200);
  })
  .openapi(verifyEmailRoute, async (c) => {
    const core = c.get("core");
    await limitAccountChange(core, "linkRedemption", clientIp(c));
    const { token } = await readBody(c, EmailVerificationInput);
    return c.json({ message: AUTH_MESSAGES.emailVerified, data: await verifyEmail(core, token) }, 200);
  })
  .openapi(resendVerificationRoute, async (c) => {
    await resendVerification(c.get("core"), c.get("auth").userId);
    return c.json({ message: AUTH_MESSAGES.verificationSent }, 202);
  });

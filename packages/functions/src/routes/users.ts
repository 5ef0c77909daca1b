import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { ProfileUpdateInput } from "@fintech/core/auth/model";
import { getProfile, updateProfile } from "@fintech/core/auth/service";
import type { AppEnv } from "../http/env";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, TAGS } from "../http/openapi";
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
  description: "Changes any of email, names, phone and date of birth; every field is optional and unknown fields (role among them) are refused.",
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  request: { body: jsonBody("ProfileUpdateInput", ProfileUpdateInput, { first_name: "Ada", phone: "+44 20 7946 0958" }) },
  responses: {
    200: jsonReply("The updated profile", "ProfileUpdatedReply", ProfileUpdatedReply, { message: "Profile updated", data: userExample }),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 404: ["user_not_found"], 409: ["email_taken", "concurrent_update"], 413: ["payload_too_large"], 503: true }),
  },
});

export const userRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(getProfileRoute, async (c) => c.json({ data: await getProfile(c.get("core"), c.get("auth").userId) }, 200))
  .openapi(updateProfileRoute, async (c) => {
    const changes = await readBody(c, ProfileUpdateInput);
    return c.json({ message: "Profile updated", data: await updateProfile(c.get("core"), c.get("auth").userId, changes) }, 200);
  });

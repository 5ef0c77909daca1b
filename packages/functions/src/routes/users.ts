import { Hono } from "hono";
import { ProfileUpdateInput } from "@fintech/core/auth/model";
import { getProfile, updateProfile } from "@fintech/core/auth/service";
import type { AppEnv } from "../http/env";
import { requireAuth } from "../http/middleware";
import { jsonBody } from "../http/validate";

export const userRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/profile", async (c) => c.json({ data: await getProfile(c.get("core"), c.get("auth").userId) }))
  .put("/profile", async (c) => {
    const changes = await jsonBody(c, ProfileUpdateInput);
    return c.json({ message: "Profile updated", data: await updateProfile(c.get("core"), c.get("auth").userId, changes) });
  });

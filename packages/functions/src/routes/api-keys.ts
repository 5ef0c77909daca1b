import { Hono } from "hono";
import { createApiKey, listApiKeys, revokeApiKey } from "@fintech/core/auth/api-keys";
import type { AppEnv } from "../http/env";
import { requireAuth, requireSession } from "../http/middleware";
import { readJson } from "../http/validate";

/** The signed-in user's API keys (create, list, revoke); managed from a session only. */
export const apiKeyRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireSession)
  .get("/", async (c) => c.json({ data: await listApiKeys(c.get("core"), c.get("auth").userId) }))
  // The reply is the only time the key itself is shown.
  .post("/", async (c) => c.json({ message: "API key created: copy it now, it is not shown again", data: await createApiKey(c.get("core"), c.get("auth").userId, await readJson(c)) }, 201))
  .delete("/:id", async (c) => c.json({ message: "API key revoked", data: await revokeApiKey(c.get("core"), c.get("auth").userId, c.req.param("id")) }));

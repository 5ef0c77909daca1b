import { createRequire } from "node:module";
import type { RequestListener } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { isApiPath } from "../resources/routes";
import { cliOptions, REPO_ROOT, runUntilSignalled } from "./cli";
import { startLocalStack } from "./stack";

/** The slice of Vite's API used here (Vite is not a dependency of infra/). */
interface ViteModule {
  createServer(config: Record<string, unknown>): Promise<{ middlewares: RequestListener }>;
}

/**
 * `npm run dev`: the same stack, with Vite in middleware mode on the same port instead of the
 * built SPA, so the browser gets hot reload and still talks to the API same-origin.
 */
await runUntilSignalled(
  () =>
    startLocalStack({
      ...cliOptions(process.argv.slice(2), process.env),
      staticDir: null,
      listener: async (api) => {
        // Vite is a dependency of the web package, so resolve it from there.
        const vitePath = createRequire(path.join(REPO_ROOT, "packages/web/package.json")).resolve("vite");
        const { createServer } = (await import(pathToFileURL(vitePath).href)) as ViteModule;
        const vite = await createServer({
          root: path.join(REPO_ROOT, "packages/web"),
          configFile: path.join(REPO_ROOT, "packages/web/vite.config.ts"),
          server: { middlewareMode: true },
          appType: "spa",
        });
        const apiListener = getRequestListener(api.fetch);
        return (req, res) => {
          const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
          if (isApiPath(pathname)) void apiListener(req, res);
          else vite.middlewares(req, res);
        };
      },
    }),
  "Fintech platform (dev, hot reload)",
);

import { Hono } from "hono";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import type { CoreContext } from "@fintech/core/shared/context";
import { composeApp } from "./compose";
import type { AppEnv } from "./http/app-context";
import { errorReply } from "./http/middleware";
import { type ApiSection, mountAll, type SectionContext, sectionOf } from "./sections";

/**
 * The API served section by section: each section's app (its routes behind compose.ts's
 * middleware) is built at the first request under its prefixes and kept for the instance's life.
 * A section that fails to load is tried again by the next request. The document's route loads
 * the whole API (app.ts) when it is first asked for.
 */
export function createSectionedApp(core: CoreContext, metrics: RequestMetrics): Hono<AppEnv> {
  const context: SectionContext = { metrics, document: async () => (await import("./app")).openApiDocument() };
  const apps = new Map<ApiSection, Promise<Hono<AppEnv>>>();
  const appOf = (section: ApiSection) => {
    let app = apps.get(section);
    if (!app) {
      app = section
        .load()
        .then((mountsOf) => composeApp(core, metrics, mountAll(new Hono<AppEnv>(), mountsOf(context))));
      app.catch(() => apps.delete(section));
      apps.set(section, app);
    }
    return app;
  };
  const dispatcher = new Hono<AppEnv>();
  // The Lambda adapter's event and context travel in env, as they would to the app itself.
  dispatcher.all("*", async (c) => (await appOf(sectionOf(c.req.path))).fetch(c.req.raw, c.env));
  dispatcher.onError(errorReply);
  return dispatcher;
}

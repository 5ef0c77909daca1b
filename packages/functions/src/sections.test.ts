import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestMetrics } from "@fintech/core/metrics/recorder";
import { createTestContext } from "@fintech/testing/context";
import { createApp, openApiDocument } from "./app";
import type { AppEnv } from "./http/app-context";
import { createSectionedApp } from "./sectioned-app";
import { API_SECTIONS, mountAll, sectionOf } from "./sections";

const metrics = () => new RequestMetrics({ clock: () => new Date() });
/** An app's routes as Hono registered them (middleware included), in order. */
const routesOf = (app: Hono<never>) => app.routes.map((route) => `${route.method} ${route.path}`);
const pathOf = (route: string) => route.slice(route.indexOf(" ") + 1);

describe("the API's sections", () => {
  it("mount each route (and middleware) in the section its path dispatches to, so the API function reaches every route", async () => {
    for (const section of API_SECTIONS) {
      const mountsOf = await section.load();
      const routes = routesOf(
        mountAll(new Hono<AppEnv>(), mountsOf({ metrics: metrics(), document: () => ({}) })) as unknown as Hono<never>,
      );
      expect(routes.length, section.name).toBeGreaterThan(0);
      for (const route of routes) expect(sectionOf(pathOf(route)).name, route).toBe(section.name);
    }
    expect(sectionOf("/api/openapi.json").name).toBe("document");
  });

  it("dispatch on whole path segments, and send a path under no prefix to the system section (its 404)", () => {
    expect(sectionOf("/api/v1/kyc/upload").name).toBe("kyc");
    expect(sectionOf("/v1/kyc/profiles/abc").name).toBe("kyc");
    expect(sectionOf("/api/v1/accounts/").name).toBe("ledger");
    expect(sectionOf("/api/v1/accountsx").name).toBe("system");
    expect(sectionOf("/nowhere").name).toBe("system");
  });

  describe("served through the middleware", () => {
    let context: Awaited<ReturnType<typeof createTestContext>>;
    beforeAll(async () => {
      context = await createTestContext();
    });
    afterAll(async () => context.dispose());

    it("answer as the whole app does", async () => {
      const sectioned = createSectionedApp(context, metrics());
      const whole = createApp(context, { metrics: metrics() });
      const origin = "http://localhost:5173";
      const requests = [
        ["/nowhere", {}],
        ["/api/v1/accounts", {}],
        ["/api/v1/kyc/countries?search=ind", {}],
        ["/api/v1/kyc/countries", { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET" } }],
      ] as const;
      for (const [path, init] of requests) {
        const [a, b] = await Promise.all([sectioned.request(path, init), whole.request(path, init)]);
        expect({ path, status: a.status, body: await a.text() }).toEqual({
          path,
          status: b.status,
          body: await b.text(),
        });
        expect(a.headers.get("access-control-allow-origin")).toBe(b.headers.get("access-control-allow-origin"));
      }
      const reply = await sectioned.request("/api/openapi.json");
      expect(await reply.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    });
  });
});

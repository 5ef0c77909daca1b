import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../http/app-context";
import { publicAccess, schemaRef, TAGS } from "../http/openapi";

/** Loose on purpose: the document's own shape is OpenAPI 3.1, checked by a validator in the tests. */
const OpenApiObject = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export const OPENAPI_DOCUMENT_PATH = "/api/openapi.json";

const getOpenApiDocument = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document",
  description:
    "The API contract, generated from the zod schemas that validate each route. Public; the SDK and the API explorer are built from it.",
  tags: [TAGS.system],
  "x-stability": "stable",
  "x-complexity": "low",
  security: publicAccess,
  responses: {
    200: {
      description: "The OpenAPI 3.1 document",
      content: {
        "application/json": {
          schema: schemaRef("OpenApiDocument", OpenApiObject, "output"),
          example: { openapi: "3.1.0", info: { title: "Fintech Platform API", version: "1.0.0" }, paths: {} },
        },
      },
    },
  },
});

/**
 * GET /openapi.json (mounted under /api); `document` builds (and may cache) the whole app's
 * document, loading the whole app first where it is served section by section (sections.ts).
 */
export function openApiDocumentRoutes(document: () => object | Promise<object>) {
  return new OpenAPIHono<AppEnv>().openapi(getOpenApiDocument, async (c) => c.json(await document(), 200));
}

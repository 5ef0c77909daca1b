import { apiRoutes, openApiDocument as build } from "./app";

/**
 * The OpenAPI 3.1 document of the whole API, built from the same route modules the app mounts
 * (no store, server or CoreContext needed): `import { openApiDocument } from "@fintech/functions/openapi-document"`.
 * It is also served at GET /api/openapi.json.
 */
export function openApiDocument() {
  return build();
}

export { apiRoutes };

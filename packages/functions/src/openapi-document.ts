/**
 * The OpenAPI 3.1 document of the whole API, built from the same route modules the app mounts
 * (no store, server or CoreContext needed):
 * `import { openApiDocument } from "@fintech/functions/openapi-document"`. The app serves the same
 * object at GET /api/openapi.json.
 */
export { apiRoutes, openApiDocument } from "./app";

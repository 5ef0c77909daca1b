import { ApiExplorerScreen } from "../developers/explorer/ApiExplorerScreen";

/**
 * /developers/api-explorer: every endpoint of the API, from its OpenAPI document, with Try It
 * (public; see routeTable).
 */
export default function ApiExplorerPage() {
  return <ApiExplorerScreen />;
}

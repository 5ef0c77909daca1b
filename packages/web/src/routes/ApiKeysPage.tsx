import { ApiKeysScreen } from "../developers/apiKeys/ApiKeysScreen";

/** /developers/api-keys: the signed-in user's API keys (guarded; see routeTable). */
export default function ApiKeysPage() {
  return <ApiKeysScreen />;
}

import { HubScreen } from "../developers/hub/HubScreen";

/** /developers: the developer hub (docs/product/developer-tools.md#developer-hub). */
export default function DevelopersPage() {
  return <HubScreen />;
}

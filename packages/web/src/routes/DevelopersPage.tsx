import { HubScreen } from "../developers/hub/HubScreen";

/** /developers: the developer hub (spec 001 §2). */
export default function DevelopersPage() {
  return <HubScreen />;
}

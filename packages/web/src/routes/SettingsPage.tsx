import { SettingsScreen } from "../account/SettingsScreen";

/** /settings: the signed-in user's account settings (guarded; see routeTable). */
export default function SettingsPage() {
  return <SettingsScreen />;
}

import { ProfileScreen } from "../account/ProfileScreen";

/** /profile: the signed-in user's profile settings (guarded; see routeTable). */
export default function ProfilePage() {
  return <ProfileScreen />;
}

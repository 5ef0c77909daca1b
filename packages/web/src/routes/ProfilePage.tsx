import { Navigate } from "react-router-dom";

/** /profile: the profile is a section of the account settings; old links land there. */
export default function ProfilePage() {
  return <Navigate to="/settings#profile" replace />;
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function LandingPage() {
  return <PlaceholderScreen title="Landing page" arrivesWith="landing page" />;
}

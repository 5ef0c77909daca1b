import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function AboutPage() {
  return <PlaceholderScreen title="About the creator" arrivesWith="portfolio" />;
}

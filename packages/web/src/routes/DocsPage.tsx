import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function DocsPage() {
  return <PlaceholderScreen title="Documentation" arrivesWith="documentation" />;
}

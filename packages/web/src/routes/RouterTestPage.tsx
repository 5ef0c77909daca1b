import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function RouterTestPage() {
  return <PlaceholderScreen title="Router test" arrivesWith="router test" />;
}

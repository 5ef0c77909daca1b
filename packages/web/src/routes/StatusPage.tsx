import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function StatusPage() {
  return <PlaceholderScreen title="System status" arrivesWith="system status" />;
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function ApiExplorerPage() {
  return <PlaceholderScreen title="API explorer" arrivesWith="API explorer" />;
}

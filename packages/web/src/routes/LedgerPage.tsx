import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function LedgerPage() {
  return <PlaceholderScreen title="Ledger workspace" arrivesWith="ledger workspace" />;
}

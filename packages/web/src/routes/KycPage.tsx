import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function KycPage() {
  return <PlaceholderScreen title="Know Your Customer" arrivesWith="KYC wizard" />;
}

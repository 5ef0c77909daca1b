import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function KycDashboardPage() {
  return <PlaceholderScreen title="KYC Management" arrivesWith="KYC dashboard" />;
}

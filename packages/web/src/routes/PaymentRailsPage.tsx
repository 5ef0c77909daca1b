import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function PaymentRailsPage() {
  return <PlaceholderScreen title="Payment-rails dashboard" arrivesWith="payment-rails dashboard" />;
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function PaymentRailsPage() {
  return (
    <PlaceholderScreen
      title="Payment-rails dashboard"
      product="The payment-rails dashboard"
      willDo="compare six payment rails by cost, success rate and speed, adjust their settings, simulate what a payment costs on each, and follow settlement files."
    />
  );
}

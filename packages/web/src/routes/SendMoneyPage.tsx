import { SendMoneyScreen } from "../payments/SendMoneyScreen";

/** /payments/send: pay a person by email or an outside account (guarded; see routeTable). */
export default function SendMoneyPage() {
  return <SendMoneyScreen />;
}

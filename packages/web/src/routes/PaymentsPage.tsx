import { PaymentsScreen } from "../payments/PaymentsScreen";

/**
 * /payments: the real-time payment page (guarded, no layout wrapper: the screen carries its own
 * header and way back).
 */
export default function PaymentsPage() {
  return <PaymentsScreen />;
}

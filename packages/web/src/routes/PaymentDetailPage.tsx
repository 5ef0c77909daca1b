import { PaymentDetailScreen } from "../payments/PaymentDetailScreen";

/** /payments/:id: one payment's timeline, routing and fee (guarded; see routeTable). */
export default function PaymentDetailPage() {
  return <PaymentDetailScreen />;
}

import { Link } from "react-router-dom";
import { PlaceholderScreen } from "../components/PlaceholderScreen";
import { secondaryButtonClass } from "../components/styles";

/** /payments has no layout, so the placeholder carries its own way back. */
export default function PaymentsPage() {
  return (
    <PlaceholderScreen
      title="Real-time payments"
      product="Real-time payments"
      willDo="start a live stream of payment events, send a test payment, and watch volume, success rate and processing time update as payments move."
    >
      <Link to="/" className={`${secondaryButtonClass} mt-8`}>
        Back to Home
      </Link>
    </PlaceholderScreen>
  );
}

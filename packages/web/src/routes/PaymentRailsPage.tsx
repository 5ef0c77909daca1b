import { RailsConsole } from "../rails/RailsConsole";

/** /payment-rails: the payment-rails console (guarded; admins edit, start and stop rails, everyone signed in reads). */
export default function PaymentRailsPage() {
  return <RailsConsole />;
}

import { QuickstartScreen } from "../developers/quickstart/QuickstartScreen";

/** /developers/quickstart: sign-up to a first transfer with an API key. */
export default function QuickstartPage() {
  return <QuickstartScreen />;
}

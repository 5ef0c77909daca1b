import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function DocsPage() {
  return (
    <PlaceholderScreen
      title="Documentation"
      product="Documentation"
      willDo="searchable guides to getting started, authentication, the ledger API, payment processing and real-time APIs, with code you can copy."
    />
  );
}

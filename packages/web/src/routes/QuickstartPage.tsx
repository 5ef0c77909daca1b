import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function QuickstartPage() {
  return (
    <PlaceholderScreen
      title="Quickstart"
      product="Quickstart"
      willDo="take you from sign-up to your first transfer with an API key, step by step."
    />
  );
}

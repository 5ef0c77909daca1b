import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function KycPage() {
  return (
    <PlaceholderScreen
      title="Know Your Customer"
      product="Identity verification"
      willDo="a five-step wizard to choose your country, upload an identity document, verify your Aadhaar and PAN numbers, and finish."
    />
  );
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function RouterTestPage() {
  return (
    <PlaceholderScreen
      title="Router test"
      product="The router test"
      willDo="see the current path, query and hash, and jump between the main screens, back, forward and reload to check navigation."
    />
  );
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function ExamplesPage() {
  return (
    <PlaceholderScreen
      title="Examples"
      product="Examples"
      willDo="show complete, runnable examples of the API and the TypeScript SDK."
    />
  );
}

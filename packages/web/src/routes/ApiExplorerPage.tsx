import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function ApiExplorerPage() {
  return (
    <PlaceholderScreen
      title="API explorer"
      product="The API explorer"
      willDo="browse every endpoint by category, with request and response examples and a ready-to-run curl command you can copy."
    />
  );
}

import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function DevelopersPage() {
  return (
    <PlaceholderScreen
      title="Developer hub"
      product="The developer hub"
      willDo="one place to start from, with links to the API explorer, the documentation, the streaming demo and the test suite."
    />
  );
}

import { ExamplesScreen } from "../developers/examples/ExamplesScreen";

/** /developers/examples: complete, runnable examples with curl and the SDK. */
export default function ExamplesPage() {
  return <ExamplesScreen />;
}

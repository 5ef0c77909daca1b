import { DocPageScreen } from "../docs/DocPageScreen";
import { examples } from "./examples";

/** /developers/examples: complete examples with curl and the SDK, run top to bottom by the test suite. */
export function ExamplesScreen() {
  return (
    <DocPageScreen
      page={examples}
      showPrelude
      intro="Complete, runnable examples with curl and the TypeScript SDK. Run them in order: the setup opens the accounts the others use. Every example here is run against the real API by the test suite."
    />
  );
}

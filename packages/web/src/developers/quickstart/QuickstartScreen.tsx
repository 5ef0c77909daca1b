import { DocPageScreen } from "../docs/DocPageScreen";
import { quickstart } from "./quickstart";

/** /developers/quickstart: sign-up to a first transfer with an API key (its first step sets BASE_URL). */
export function QuickstartScreen() {
  return (
    <DocPageScreen
      page={quickstart}
      showPrelude={false}
      intro="From sign-up to your first transfer with an API key: run each step in a terminal, in order, or the whole flow in TypeScript at the end. Every step is run against the real API by the test suite."
    />
  );
}

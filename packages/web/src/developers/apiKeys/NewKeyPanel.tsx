import type { CreatedApiKey } from "../../api/apiKeys";
import { SecretRevealPanel } from "../shared/SecretRevealPanel";

/** The new key's secret, shown this once: the server keeps only a hash, so it cannot be shown again. */
export function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <SecretRevealPanel
      title={`Your new key: ${created.name}`}
      warning="Copy this key now. You won't see it again."
      secret={created.key}
      testId="new-api-key"
      copyLabel="Copy key"
      doneLabel="Done, I have copied it"
      onDone={onDone}
    />
  );
}

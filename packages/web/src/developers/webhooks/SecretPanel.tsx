import type { WebhookSecretReveal } from "../../api/webhooks";
import { linkButtonClass } from "../../components/styles";
import { CodeBlock } from "../explorer/CodeBlock";
import { SecretRevealPanel } from "../shared/SecretRevealPanel";
import { STANDARD_WEBHOOKS_URL, VERIFY_SNIPPET } from "./view";

/**
 * An endpoint's signing secret, shown this once (after creation or a rotation), with how a
 * receiver checks a delivery with it.
 */
export function SecretPanel({
  reveal,
  rotated,
  onDone,
}: {
  reveal: WebhookSecretReveal;
  rotated: boolean;
  onDone: () => void;
}) {
  const where = reveal.endpoint.description || reveal.endpoint.url;
  return (
    <SecretRevealPanel
      title={rotated ? `New signing secret: ${where}` : `Signing secret: ${where}`}
      warning="Copy this secret now. You won't see it again."
      secret={reveal.secret}
      testId="webhook-secret"
      copyLabel="Copy secret"
      doneLabel="I have saved it"
      onDone={onDone}
    >
      <div className="mt-4 space-y-2">
        <p className="text-sm text-slate-800 dark:text-slate-100">
          Verify every delivery like this before trusting it, and drop repeats by their <code>webhook-id</code>. For
          other languages, see the{" "}
          <a href={STANDARD_WEBHOOKS_URL} target="_blank" rel="noopener noreferrer" className={linkButtonClass}>
            Standard Webhooks libraries
          </a>
          .
        </p>
        <div className="bg-white dark:bg-slate-900">
          <CodeBlock
            title="Verify a delivery (TypeScript)"
            code={VERIFY_SNIPPET}
            copyLabel="Copy the verification code"
          />
        </div>
      </div>
    </SecretRevealPanel>
  );
}

import { useState } from "react";
import toast from "react-hot-toast";
import { buildCurl } from "../../api";
import type { ApiKey, CreatedApiKey } from "../../api/apiKeys";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { EmptyState, LoadError, Spinner, cardClass, sectionTitleClass, subtleTextClass } from "../../ledger/ui";
import { CreateKeyForm, NAME_FIELD_ID } from "./CreateKeyForm";
import { useApiKeys } from "./hooks";
import { KeysTable } from "./KeysTable";
import { NewKeyPanel } from "./NewKeyPanel";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { keyPlaceholder } from "./view";

/**
 * Developers > API keys: create a key (its secret shown once), see every key by name and
 * prefix, revoke one. Keys act as their owner, on the owner's own resources only.
 */
export function ApiKeysScreen() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const list = keys.data ?? [];

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">API keys</h1>
      </header>

      <section aria-labelledby="api-keys-about" className={`mt-6 ${cardClass}`}>
        <h2 id="api-keys-about" className={sectionTitleClass}>
          How keys work
        </h2>
        <p className={`mt-2 ${subtleTextClass}`}>
          A key acts as you, for your own accounts and transactions: send it as{" "}
          <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. It does only what its scopes allow (a
          call outside them is refused with the missing scope named), never reaches admin actions, even if you are an
          admin, and cannot change your sign-in email, your password or your keys. Keep it secret, and revoke a key you
          no longer use or that may have leaked: it stops working at once.
        </p>
        <pre
          role="group"
          tabIndex={0}
          aria-label="Example request with an API key"
          className="mt-3 overflow-x-auto rounded-lg bg-slate-100 p-3 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100"
        >
          {buildCurl("GET", "/api/v1/ledger/accounts", undefined, keyPlaceholder(list))}
        </pre>
      </section>

      <section aria-labelledby="api-keys-create" className={`mt-6 ${cardClass}`}>
        <h2 id="api-keys-create" className={sectionTitleClass}>
          Create a key
        </h2>
        <CreateKeyForm onCreated={setCreated} />
        {created && (
          <NewKeyPanel
            created={created}
            onDone={() => {
              setCreated(null);
              // The panel held focus; the name field is where the next action starts.
              document.getElementById(NAME_FIELD_ID)?.focus();
            }}
          />
        )}
      </section>

      <section aria-labelledby="api-keys-list" className="mt-6">
        <h2 id="api-keys-list" className={sectionTitleClass}>
          Your keys
        </h2>
        <div className="mt-3">
          {keys.isError ? (
            <LoadError
              message={writeErrorMessage(keys.error, "Failed to load your API keys")}
              onRetry={() => void keys.refetch()}
            />
          ) : keys.isPending ? (
            <p className={subtleTextClass}>
              <Spinner label="Loading your API keys…" />
            </p>
          ) : list.length === 0 ? (
            <EmptyState title="No API keys yet">Create one above to call the API from a script or a server.</EmptyState>
          ) : (
            <KeysTable keys={list} onRevoke={setRevoking} />
          )}
        </div>
      </section>

      {revoking && (
        <RevokeKeyDialog
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={(revoked) => {
            setRevoking(null);
            toast.success(`API key "${revoked.name}" revoked`);
          }}
        />
      )}
    </div>
  );
}

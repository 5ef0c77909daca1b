import { useState } from "react";
import type { ApiKey } from "../../api/apiKeys";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { ConfirmDialog } from "../../ledger/ConfirmDialog";
import { errorTextClass } from "../../ledger/ui";
import { useRevokeApiKey } from "./hooks";
import { prefixLabel } from "./view";

/** Asks before revoking: a revoked key stops working at once and cannot be restored. */
export function RevokeKeyDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onRevoked: (key: ApiKey) => void;
}) {
  const revoke = useRevokeApiKey();
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    setFailure(null);
    try {
      onRevoked(await revoke.mutateAsync(apiKey.id));
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Failed to revoke the API key"));
    }
  };

  return (
    <ConfirmDialog
      title="Revoke this API key?"
      confirmLabel="Revoke key"
      busyLabel="Revoking…"
      busy={revoke.isPending}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <p>
        Anything using <strong className="break-words">{apiKey.name}</strong> (
        <span className="font-mono">{prefixLabel(apiKey.prefix)}</span>) stops working at once. This cannot be undone.
      </p>
      {failure && (
        <p role="alert" className={errorTextClass}>
          {failure}
        </p>
      )}
    </ConfirmDialog>
  );
}

import type { ApiKey } from "../../api/apiKeys";
import { formatDateTime } from "../../ledger/format";
import { dangerButtonClass } from "../../ledger/ui";
import { keyStatus, lastUsedLabel, prefixLabel } from "./view";

const cellClass = "px-3 py-2";

function StatusBadge({ apiKey }: { apiKey: ApiKey }) {
  const status = keyStatus(apiKey);
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${
        status === "Active"
          ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
          : "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
      }`}
    >
      {status}
    </span>
  );
}

/** Every key, newest first; revoked ones stay listed (with when) so the history is visible. */
export function KeysTable({ keys, onRevoke }: { keys: readonly ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    // Focusable, so a keyboard user can scroll the table sideways on a narrow screen.
    <div
      tabIndex={0}
      role="region"
      aria-label="API keys table"
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <tr>
            <th scope="col" className={cellClass}>
              Name
            </th>
            <th scope="col" className={cellClass}>
              Key
            </th>
            <th scope="col" className={cellClass}>
              Scopes
            </th>
            <th scope="col" className={cellClass}>
              Created
            </th>
            <th scope="col" className={cellClass}>
              Last used
            </th>
            <th scope="col" className={cellClass}>
              Status
            </th>
            <th scope="col" className={cellClass}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 text-slate-800 dark:divide-slate-800 dark:text-slate-200">
          {keys.map((apiKey) => (
            <tr key={apiKey.id}>
              <th
                scope="row"
                className={`${cellClass} max-w-[16rem] break-words font-medium text-slate-900 dark:text-white`}
              >
                {apiKey.name}
              </th>
              <td className={`${cellClass} whitespace-nowrap font-mono text-xs`}>{prefixLabel(apiKey.prefix)}</td>
              <td className={cellClass}>
                <ul aria-label={`Scopes of ${apiKey.name}`} className="flex max-w-[16rem] flex-wrap gap-1">
                  {apiKey.scopes.map((scope) => (
                    <li
                      key={scope}
                      className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-200"
                    >
                      {scope}
                    </li>
                  ))}
                </ul>
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDateTime(apiKey.created_at)}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{lastUsedLabel(apiKey)}</td>
              <td className={`${cellClass} whitespace-nowrap`}>
                <StatusBadge apiKey={apiKey} />
                {apiKey.revoked_at && (
                  <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400">
                    {formatDateTime(apiKey.revoked_at)}
                  </span>
                )}
              </td>
              <td className={`${cellClass} text-right`}>
                {!apiKey.revoked_at && (
                  <button
                    type="button"
                    className={dangerButtonClass}
                    onClick={() => onRevoke(apiKey)}
                    aria-label={`Revoke ${apiKey.name}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

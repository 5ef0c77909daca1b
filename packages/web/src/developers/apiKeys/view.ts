import { API_KEY_PREFIX, API_KEY_SCOPES, ApiKeyScope, CreateApiKeyInput } from "@fintech/core/auth/model";
import { z } from "zod";
import type { ApiKey } from "../../api/apiKeys";
import { formatDateTime } from "../../ledger/format";

/** What the API keys screen shows of a key; pure, so the table and its tests agree. */

export type ApiKeyStatus = "Active" | "Revoked";

export const keyStatus = (key: Pick<ApiKey, "revoked_at">): ApiKeyStatus => (key.revoked_at ? "Revoked" : "Active");

/** The visible start of a key, marked as cut short: "fpk_3xQ9aB7c…". */
export const prefixLabel = (prefix: string): string => `${prefix}…`;

/** When the key last authenticated a request, or "Never". */
export const lastUsedLabel = (key: Pick<ApiKey, "last_used_at">): string =>
  key.last_used_at ? formatDateTime(key.last_used_at) : "Never";

/**
 * What the sample curl call shows for the key: the newest active key's visible prefix with the
 * rest left to the reader ("fpk_3xQ9aB7c<rest of your key>"), never a real secret.
 */
export function keyPlaceholder(keys: readonly Pick<ApiKey, "prefix" | "revoked_at">[]): string {
  const active = keys.find((key) => !key.revoked_at);
  return active ? `${active.prefix}<rest of your key>` : `${API_KEY_PREFIX}<your key>`;
}

/**
 * Scopes ticked when the form opens: every read scope, so a new key can look but not change
 * anything until more is chosen.
 */
export const DEFAULT_FORM_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES.filter((scope) => scope.endsWith(":read"));

/** The scopes grouped by area, for the form's checkboxes: [["ledger", ["ledger:read", "ledger:write"]], ...]. */
export function scopeGroups(): [area: string, scopes: ApiKeyScope[]][] {
  const groups = new Map<string, ApiKeyScope[]>();
  for (const scope of API_KEY_SCOPES) {
    const area = scope.slice(0, scope.indexOf(":"));
    groups.set(area, [...(groups.get(area) ?? []), scope]);
  }
  return [...groups];
}

/**
 * The create form: the server's own name rule (1 to 100 characters once trimmed), so both say the
 * same words, and at least one scope.
 */
export const createKeyFormSchema = z.object({
  name: CreateApiKeyInput.shape.name,
  scopes: z.array(ApiKeyScope).min(1, "Choose at least one scope"),
});
export type CreateKeyFormInput = z.input<typeof createKeyFormSchema>;
export type CreateKeyFormValues = z.output<typeof createKeyFormSchema>;

import { createHash } from "node:crypto";

/** Key formats of the compliance domain; nothing else builds these keys. */

/**
 * A case's id: the same (rule, customer, window) always names the same case, so running a
 * report again finds the case it opened before, with its status.
 */
export const caseIdOf = (rule: string, customerId: string, window: string): string =>
  createHash("sha256").update(`${rule}\u0000${customerId}\u0000${window}`).digest("hex").slice(0, 32);

export const casePartition = (caseId: string) => `CMPCASE#${caseId}`;
export const caseKey = (caseId: string) => ({ pk: casePartition(caseId), sk: "CASE" });
/** Every status change of a case, in order: its audit trail. */
export const caseAuditKey = (caseId: string, version: number) => ({
  pk: casePartition(caseId),
  sk: `AUDIT#${String(version).padStart(8, "0")}`,
});
export const CASE_AUDIT_PREFIX = "AUDIT#";

/** Where exports are written in the settlements bucket (the API may write and read only there). */
export const COMPLIANCE_EXPORT_PREFIX = "reports/compliance/";
export const exportObjectKey = (day: string, id: string, filename: string) =>
  `${COMPLIANCE_EXPORT_PREFIX}${day}/${id}/${filename}`;

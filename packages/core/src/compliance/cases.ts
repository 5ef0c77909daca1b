import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { conflict, notFound, unprocessable } from "../shared/errors";
import { CASE_AUDIT_PREFIX, caseAuditKey, caseIdOf, caseKey, casePartition } from "./keys";
import {
  CASE_ID_PATTERN,
  CaseAudit,
  COMPLIANCE_MESSAGES,
  ComplianceCase,
  type CaseUpdateInput,
  type SarRule,
} from "./model";
import { batchGetAll, mapLimited } from "./sources";

/**
 * The case of a suspicious-activity candidate: one item per (rule, customer, window), opened the
 * first time a report finds the candidate and found again by every later run (its id is a hash of
 * the three, keys.ts), so a re-run never duplicates a case and keeps its status. Every status
 * change is version-conditioned (a concurrent change is a 409) and writes an audit item (who,
 * when, why) in the same transaction.
 */

export const SYSTEM_ACTOR = "system";

export interface CaseRef {
  rule: SarRule;
  customerId: string;
  window: string;
}

const caseFields = [
  "id",
  "rule",
  "customer_id",
  "window",
  "status",
  "reason",
  "version",
  "opened_at",
  "updated_at",
  "updated_by",
];

/** The cases of these candidates, opened now for the ones seen for the first time. */
export async function casesFor(ctx: CoreContext, refs: readonly CaseRef[]): Promise<Map<string, ComplianceCase>> {
  const ids = [...new Set(refs.map((ref) => caseIdOf(ref.rule, ref.customerId, ref.window)))];
  const found = new Map<string, ComplianceCase>();
  for (const item of await batchGetAll(
    ctx,
    ids.map((id) => caseKey(id)),
    caseFields,
  ))
    found.set(String(item.id), ComplianceCase.parse(item));
  const now = ctx.clock().toISOString();
  const unseen = new Map<string, CaseRef>();
  for (const ref of refs) {
    const id = caseIdOf(ref.rule, ref.customerId, ref.window);
    if (!found.has(id)) unseen.set(id, ref);
  }
  await mapLimited([...unseen], 8, async ([id, ref]) => {
    const opened: ComplianceCase = {
      id,
      rule: ref.rule,
      customer_id: ref.customerId,
      window: ref.window,
      status: "open",
      reason: null,
      version: 1,
      opened_at: now,
      updated_at: now,
      updated_by: SYSTEM_ACTOR,
    };
    try {
      await ctx.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: ctx.db.table,
                Item: { ...caseKey(id), entity: "compliance_case", ...opened },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            { Put: { TableName: ctx.db.table, Item: auditItem(id, 1, "open", null, SYSTEM_ACTOR, now) } },
          ],
        }),
      );
      found.set(id, opened);
    } catch (error) {
      // Another run opened it at the same moment: theirs is the case.
      if (!isAwsError(error, "TransactionCanceledException")) throw error;
      const again = await readCase(ctx, id);
      if (!again) throw error;
      found.set(id, again);
    }
  });
  return found;
}

function auditItem(id: string, version: number, status: string, reason: string | null, by: string, at: string) {
  return { ...caseAuditKey(id, version), entity: "compliance_case_audit", status, reason, by, at };
}

async function readCase(ctx: CoreContext, id: string): Promise<ComplianceCase | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: caseKey(id), ConsistentRead: true }),
  );
  return reply.Item ? ComplianceCase.parse(reply.Item) : null;
}

const caseNotFound = () => notFound(COMPLIANCE_MESSAGES.caseNotFound, "case_not_found");

/** The case and its audit trail, oldest change first. */
export async function getCase(ctx: CoreContext, id: string): Promise<ComplianceCase & { audit: CaseAudit[] }> {
  if (!CASE_ID_PATTERN.test(id)) throw caseNotFound();
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": casePartition(id) },
      ConsistentRead: true,
    }),
  );
  const items = reply.Items ?? [];
  const item = items.find((candidate) => candidate.sk === "CASE");
  if (!item) throw caseNotFound();
  return {
    ...ComplianceCase.parse(item),
    audit: items
      .filter((candidate) => String(candidate.sk).startsWith(CASE_AUDIT_PREFIX))
      .map((candidate) => CaseAudit.parse(candidate)),
  };
}

/**
 * File, dismiss (with a reason) or reopen a case. `version`, when given, is the version the
 * administrator saw: a case changed since is a 409, as is a change that lost a race.
 */
export async function updateCase(
  ctx: CoreContext,
  id: string,
  input: CaseUpdateInput,
  actor: string,
): Promise<ComplianceCase & { audit: CaseAudit[] }> {
  if (!CASE_ID_PATTERN.test(id)) throw caseNotFound();
  const current = await readCase(ctx, id);
  if (!current) throw caseNotFound();
  if (input.version !== undefined && input.version !== current.version)
    throw conflict(COMPLIANCE_MESSAGES.caseChanged, "case_changed");
  if (input.status === current.status)
    throw unprocessable(COMPLIANCE_MESSAGES.unchanged(current.status), "case_unchanged");
  const now = ctx.clock().toISOString();
  const version = current.version + 1;
  const reason = input.reason ? input.reason : null;
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: ctx.db.table,
              Key: caseKey(id),
              UpdateExpression:
                "SET #status = :status, reason = :reason, version = :version, updated_at = :at, updated_by = :by",
              ConditionExpression: "version = :seen",
              ExpressionAttributeNames: { "#status": "status" },
              ExpressionAttributeValues: {
                ":status": input.status,
                ":reason": reason,
                ":version": version,
                ":at": now,
                ":by": actor,
                ":seen": current.version,
              },
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: auditItem(id, version, input.status, reason, actor, now),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (isAwsError(error, "TransactionCanceledException"))
      throw conflict(COMPLIANCE_MESSAGES.caseChanged, "case_changed");
    throw error;
  }
  return getCase(ctx, id);
}

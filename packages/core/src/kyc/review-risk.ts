import type { CoreContext } from "../shared/context";
import { parseWith } from "../shared/validation";
import type { KycSubmission } from "./model";
import {
  approvalRisk,
  BulkRiskInput,
  SUBMISSION_ID_PATTERN,
  summariseBulkRisk,
  type BulkRiskItem,
  type BulkRiskSummary,
  type RiskCheck,
} from "./review-model";
import { assessSubmission } from "./risk/assess";
import { getSubmission } from "./submissions";

/**
 * What an approval would accept, as the reviewer sees it before deciding: the stored assessment
 * beside the live rule set's assessment now (the same evaluation a dry run of the published rules
 * makes, and the one review-decisions makes at the moment of approving). Reads only.
 */

export async function riskCheck(ctx: CoreContext, submission: KycSubmission): Promise<RiskCheck> {
  const live = await assessSubmission(ctx, submission);
  return { ...approvalRisk(submission.risk, live), live };
}

/** Submissions read and assessed at once for a bulk summary (each assessment is about a dozen small reads). */
const BULK_RISK_CONCURRENCY = 4;

/**
 * The risk of the submissions a bulk action is about to touch (at most KYC_LIMITS.maxBulkIds):
 * how many are Low, Medium or High, the highest score, how many the rules recommend rejecting,
 * and whether approving them needs the acknowledgement. Unknown ids are left out.
 */
export async function bulkRisk(ctx: CoreContext, body: unknown): Promise<BulkRiskSummary> {
  const { ids } = parseWith(BulkRiskInput, body);
  const items: (BulkRiskItem | null)[] = new Array(ids.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index]!;
      if (!SUBMISSION_ID_PATTERN.test(id)) continue;
      const submission = await getSubmission(ctx, id);
      if (!submission) continue;
      const check = await riskCheck(ctx, submission);
      const { live: _live, ...risk } = check;
      items[index] = { id: submission.id, name: submission.name, status: submission.status, ...risk };
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_RISK_CONCURRENCY, ids.length) }, worker));
  return summariseBulkRisk(
    ids.length,
    items.filter((item): item is BulkRiskItem => item !== null),
  );
}

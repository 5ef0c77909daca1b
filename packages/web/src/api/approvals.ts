import { z } from "zod";
import { DecisionRecord, DepositApproval, ThresholdsView, type DecisionInput } from "@fintech/core/approvals/model";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { ApiError } from "./errors";
import { segment } from "./query";

/**
 * Four eyes as the ledger workspace uses it: the thresholds (everyone) and the administrators'
 * queue of deposits above the threshold with their decision. (The payments waiting for an
 * administrator are api/paymentReviews.ts, loaded with the payments page.) Replies are read
 * through core's schemas: a reply that does not fit is an error, never a blank.
 */

export type { DecisionInput, DepositApproval, ThresholdsView };

const APPROVALS = "/api/v1/approvals";

const ThresholdsReply = z.object({ data: ThresholdsView });
const QueueReply = z.object({ data: z.array(DepositApproval), has_more: z.boolean() });
const DepositDecisionReply = z.object({ message: z.string(), data: z.object({ decision: DecisionRecord }) });

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return result.data;
}

export function approvalEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/approvals/thresholds: amounts above these need a second person. */
    async thresholds(signal?: AbortSignal): Promise<ThresholdsView> {
      return parsed(
        ThresholdsReply,
        await http.authCall<unknown>("GET", `${APPROVALS}/thresholds`, { signal }),
        "Approval thresholds",
      ).data;
    },
    /** GET /api/v1/approvals/deposits (admins): deposit drafts above the threshold, oldest first. */
    async depositQueue(signal?: AbortSignal): Promise<{ items: DepositApproval[]; hasMore: boolean }> {
      const reply = parsed(
        QueueReply,
        await http.authCall<unknown>("GET", `${APPROVALS}/deposits`, { signal }),
        "Deposit approvals",
      );
      return { items: reply.data, hasMore: reply.has_more };
    },
    /** POST /api/v1/approvals/deposits/{id}/decision (admins): approve posts the deposit, reject voids it. */
    async decideDeposit(journalId: string, input: DecisionInput): Promise<DecisionRecord> {
      return parsed(
        DepositDecisionReply,
        await http.authCall<unknown>("POST", `${APPROVALS}/deposits/${segment(journalId)}/decision`, { body: input }),
        "Deposit decision",
      ).data.decision;
    },
  };
}

export type ApprovalsApi = ReturnType<typeof approvalEndpoints>;

/** Over the app's one client (same origin, the stored session's token, a 401 signs out). */
export const approvalsApi: ApprovalsApi = approvalEndpoints(appHttp);

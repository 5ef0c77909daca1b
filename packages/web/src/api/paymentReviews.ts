import { z } from "zod";
import type { DecisionInput } from "@fintech/core/approvals/model";
import { PaymentReviewCase, REVIEW_LIST_MAX } from "@fintech/core/payments/model";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { ApiError } from "./errors";
import { segment, withQuery } from "./query";

/**
 * The payments waiting for an administrator (held for review by sanctions screening, awaiting
 * approval above the four-eyes threshold) and the administrator's decision on one, as the payments
 * page uses them. Replies are read through core's schemas: a reply that does not fit is an error.
 */

export type { DecisionInput, PaymentReviewCase };

const PAYMENTS = "/v1/payments";

const ReviewListReply = z.object({
  data: z.array(PaymentReviewCase),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});
const ReviewDecisionReply = z.object({ message: z.string(), data: PaymentReviewCase });

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return result.data;
}

export function paymentReviewEndpoints(http: HttpClient) {
  return {
    /** GET /v1/payments/reviews (admins): the newest page of payments held for review or awaiting approval. */
    async list(signal?: AbortSignal): Promise<PaymentReviewCase[]> {
      return parsed(
        ReviewListReply,
        await http.authCall<unknown>("GET", withQuery(`${PAYMENTS}/reviews`, { limit: REVIEW_LIST_MAX }), { signal }),
        "Payment reviews",
      ).data;
    },
    /** POST /v1/payments/{id}/decision (admins): approve releases the payment, reject voids its hold. */
    async decide(paymentId: string, input: DecisionInput): Promise<PaymentReviewCase> {
      return parsed(
        ReviewDecisionReply,
        await http.authCall<unknown>("POST", `${PAYMENTS}/${segment(paymentId)}/decision`, { body: input }),
        "Payment decision",
      ).data;
    },
  };
}

export type PaymentReviewsApi = ReturnType<typeof paymentReviewEndpoints>;

/** Over the app's one client; loaded with the /payments page only. */
export const paymentReviewsApi: PaymentReviewsApi = paymentReviewEndpoints(appHttp);

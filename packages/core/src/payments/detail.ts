import type { CoreContext } from "../shared/context";
import { notFound } from "../shared/errors";
import { isLedgerId } from "../ledger/model";
import { PAYMENT_MESSAGES, type PaymentDetail } from "./model";
import { getPayment, paymentHistory, publicPayment } from "./store";
import { paymentDetail } from "./timeline";

/** Who reads a payment's detail: its payer, or an administrator. */
export interface PaymentViewer {
  userId: string;
  role: "user" | "admin";
}

/**
 * A payment's detail (timeline.ts) for its payer or an administrator; for anyone else, another
 * user's payment is the same 404 as an unknown id.
 */
export async function readPaymentDetail(
  ctx: CoreContext,
  viewer: PaymentViewer,
  paymentId: string,
): Promise<PaymentDetail> {
  const stored = isLedgerId(paymentId) ? await getPayment(ctx, paymentId) : null;
  if (!stored || (stored.userId !== viewer.userId && viewer.role !== "admin"))
    throw notFound(PAYMENT_MESSAGES.paymentNotFound, "payment_not_found");
  return paymentDetail(publicPayment(stored), await paymentHistory(ctx, paymentId));
}

import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Reviewer } from "@fintech/core/approvals/model";
import { ParkedListQuery, PaymentListQuery, ReviewListQuery } from "@fintech/core/payments/model";
import { readPaymentDetail } from "@fintech/core/payments/detail";
import { addRecipient, deleteRecipient, listRecipients, renameRecipient } from "@fintech/core/payments/recipients";
import { decidePayment, listPaymentReviews, paymentReviewCase } from "@fintech/core/payments/decisions";
import { closeParkedPayment, listParkedPayments } from "@fintech/core/payments/review";
import { initiatePayment, requireOwnPayment } from "@fintech/core/payments/service";
import { quotePayment } from "@fintech/core/payments/quote";
import { listPayments, publicPayment } from "@fintech/core/payments/store";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey, writeReply } from "../http/idempotency";
import { requireAdmin, requireAuth } from "../http/middleware";
import { queryWith, readJson } from "../http/validate";
import {
  addRecipientRoute,
  closeParkedRoute,
  createPaymentRoute,
  decideRoute,
  deleteRecipientRoute,
  getPaymentDetailRoute,
  getPaymentRoute,
  getReviewRoute,
  listParkedRoute,
  listPaymentsRoute,
  listRecipientsRoute,
  listReviewsRoute,
  quotePaymentRoute,
  renameRecipientRoute,
} from "./payments.openapi";

/**
 * Payments (docs/product/payments.md#calls), mounted at /v1/payments: initiate a payment, read
 * one, list the caller's; for admins, the payments parked for review and closing one. Everything
 * lives in core (payments/service.ts, worker.ts, store.ts, review.ts); this module parses,
 * authorises and shapes the replies. The lifecycle runs in the worker
 * (docs/payments-and-rails.md#who-advances-a-payment); the payment stream is
 * routes/payment-feed.ts. What the OpenAPI document says of each route is in payments.openapi.ts.
 */

/** The administrator deciding, as the audit trail records them. */
function reviewerOf(c: Context<AppEnv>): Reviewer {
  const { user } = c.get("auth");
  return { id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
}

export const paymentRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  // A fixed path before /{id}.
  .openapi(quotePaymentRoute, async (c) =>
    c.json(await quotePayment(c.get("core"), c.get("auth"), await readJson(c)), 200),
  )
  .openapi(createPaymentRoute, async (c) => {
    const result = await initiatePayment(c.get("core"), c.get("auth"), await readJson(c), idempotencyKey(c));
    return writeReply(c, { body: result.body, replayed: result.replayed }, 201);
  })
  // The fixed paths before /{id}: "parked" and "recipients" would otherwise be read as payment ids.
  .openapi(listRecipientsRoute, async (c) =>
    c.json({ data: await listRecipients(c.get("core"), c.get("auth").userId) }, 200),
  )
  .openapi(addRecipientRoute, async (c) =>
    c.json({ data: await addRecipient(c.get("core"), c.get("auth").userId, await readJson(c)) }, 201),
  )
  .openapi(renameRecipientRoute, async (c) =>
    c.json(
      {
        data: await renameRecipient(c.get("core"), c.get("auth").userId, c.req.param("recipientId"), await readJson(c)),
      },
      200,
    ),
  )
  .openapi(deleteRecipientRoute, async (c) => {
    await deleteRecipient(c.get("core"), c.get("auth").userId, c.req.param("recipientId"));
    return c.json({ message: "Recipient deleted" }, 200);
  })
  .openapi({ ...listParkedRoute, middleware: [requireAdmin] as const }, async (c) => {
    const query = queryWith(c, ParkedListQuery);
    const page = await listParkedPayments(c.get("core"), query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi({ ...listReviewsRoute, middleware: [requireAdmin] as const }, async (c) => {
    const query = queryWith(c, ReviewListQuery);
    const page = await listPaymentReviews(c.get("core"), reviewerOf(c), query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi({ ...getReviewRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await paymentReviewCase(c.get("core"), reviewerOf(c), c.req.param("id")) }, 200),
  )
  .openapi({ ...decideRoute, middleware: [requireAdmin] as const }, async (c) => {
    const decided = await decidePayment(c.get("core"), c.req.param("id"), reviewerOf(c), await readJson(c));
    return c.json(
      { message: decided.decision?.outcome === "rejected" ? "Payment rejected" : "Payment approved", data: decided },
      200,
    );
  })
  .openapi({ ...closeParkedRoute, middleware: [requireAdmin] as const }, async (c) => {
    const closed = await closeParkedPayment(
      c.get("core"),
      c.req.param("id"),
      c.get("auth").user.email,
      await readJson(c),
    );
    return c.json({ message: "Payment closed", data: closed }, 200);
  })
  .openapi(listPaymentsRoute, async (c) => {
    const query = queryWith(c, PaymentListQuery);
    const page = await listPayments(c.get("core"), c.get("auth").userId, query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi(getPaymentDetailRoute, async (c) => {
    const { userId, role } = c.get("auth");
    return c.json({ data: await readPaymentDetail(c.get("core"), { userId, role }, c.req.param("id")) }, 200);
  })
  .openapi(getPaymentRoute, async (c) => {
    const payment = await requireOwnPayment(c.get("core"), c.get("auth").userId, c.req.param("id"));
    return c.json({ data: publicPayment(payment) }, 200);
  });

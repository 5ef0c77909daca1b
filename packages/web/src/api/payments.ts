import { PAYMENT_FEED_PATH } from "@fintech/core/events/feed-paths";
import type { z } from "zod";
import {
  CreatePaymentReply,
  PAYMENT_LIST_MAX,
  PaymentList,
  type CreatePaymentRequest,
  type Payment,
  type PaymentStatus,
} from "@fintech/core/payments/model";
import { appHttp } from "./appClient";
import { answersHealthCheck, type HttpClient } from "./client";
import { ApiError } from "./errors";
import { withQuery } from "./query";

/**
 * The payments API as the /payments page uses it (docs/product/payments.md#calls): the caller's own
 * payments (GET /v1/payments, newest first, cursor pages), a payment between the caller's accounts
 * (POST /v1/payments with an Idempotency-Key) and the payment service's health (GET
 * /api/grpc/payment/health, the Connected badge). Replies are read through core's schemas (the
 * ones the server builds them with): a reply that does not match is an error, never a blank tile.
 */

const PAYMENTS = "/v1/payments";
export const PAYMENT_HEALTH_PATH = "/api/grpc/payment/health";
export const PAYMENT_STREAM_PATH = PAYMENT_FEED_PATH;

export type { CreatePaymentRequest, Payment, PaymentStatus };

export type PaymentPage = { payments: Payment[]; nextCursor: string | null };

/** Pages of this size are asked for the tiles; PAYMENTS_MAX_PAGES bounds the walk (the tiles then say "latest N"). */
export const PAYMENTS_PAGE_SIZE = PAYMENT_LIST_MAX;
export const PAYMENTS_MAX_PAGES = 10;

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return result.data;
}

export function paymentEndpoints(http: HttpClient) {
  return {
    /** One page of the caller's payments, newest first. */
    async page(options: { limit?: number; cursor?: string | null; signal?: AbortSignal } = {}): Promise<PaymentPage> {
      const body = await http.authCall<unknown>(
        "GET",
        withQuery(PAYMENTS, { limit: options.limit ?? PAYMENTS_PAGE_SIZE, cursor: options.cursor }),
        { signal: options.signal },
      );
      const reply = parsed(PaymentList, body, "Payment list");
      return { payments: reply.data, nextCursor: reply.pagination.next_cursor };
    },
    /**
     * The caller's payments, newest first, page after page up to PAYMENTS_MAX_PAGES; `complete`
     * says whether that was all of them.
     */
    async all(signal?: AbortSignal): Promise<{ payments: Payment[]; complete: boolean }> {
      const payments: Payment[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < PAYMENTS_MAX_PAGES; page += 1) {
        const reply: PaymentPage = await this.page({ cursor, signal });
        payments.push(...reply.payments);
        cursor = reply.nextCursor;
        if (cursor === null) return { payments, complete: true };
      }
      return { payments, complete: false };
    },
    /** POST /v1/payments -> 201 {message, payment}; the same key replays the first reply. */
    async create(input: CreatePaymentRequest, idempotencyKey: string): Promise<Payment> {
      const body = await http.authCall<unknown>("POST", PAYMENTS, { body: input, idempotencyKey });
      return parsed(CreatePaymentReply, body, "Payment Create").payment;
    },
    /** Whether the payment service answers its health check (any OK reply); a refusal or no reply is false. */
    healthy: (signal?: AbortSignal): Promise<boolean> => answersHealthCheck(http, PAYMENT_HEALTH_PATH, signal),
  };
}

export type PaymentsApi = ReturnType<typeof paymentEndpoints>;

/** Over the app's one client; loaded with the /payments page only, so the initial bundle does not carry it. */
export const paymentsApi: PaymentsApi = paymentEndpoints(appHttp);

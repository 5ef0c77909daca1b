import { z } from "zod";
import {
  type CreateRecipientInput,
  Payment,
  PaymentQuoteReply,
  PaymentDetail,
  PaymentList,
  Recipient,
  type CreatePaymentRequest,
  type PaymentListFilters,
} from "@fintech/core/payments/model";
import { appHttp } from "../api/appClient";
import type { HttpClient } from "../api/client";
import { ApiError } from "../api/errors";
import { segment, withQuery } from "../api/query";

/**
 * What Send money, the payments list and a payment's detail ask the API: the quote (POST
 * /v1/payments/quote), a filtered page of payments, one payment's detail, and the saved
 * recipients. Replies are read through schemas; one that does not match is an error.
 */

const PAYMENTS = "/v1/payments";

/** The quote's reply, read with the contract's schema. */
export const PaymentQuote = PaymentQuoteReply;
export type PaymentQuote = PaymentQuoteReply;

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return result.data;
}

export const PAYMENT_PAGE_SIZE = 20;

export function sendMoneyEndpoints(http: HttpClient) {
  return {
    async quote(input: CreatePaymentRequest, signal?: AbortSignal): Promise<PaymentQuote> {
      return parsed(
        PaymentQuote,
        await http.authCall<unknown>("POST", `${PAYMENTS}/quote`, { body: input, signal }),
        "Payment quote",
      );
    },
    async create(input: CreatePaymentRequest, idempotencyKey: string): Promise<Payment> {
      const body = await http.authCall<unknown>("POST", PAYMENTS, { body: input, idempotencyKey });
      return parsed(z.object({ payment: Payment }), body, "Payment").payment;
    },
    async payment(paymentId: string, signal?: AbortSignal): Promise<Payment> {
      return parsed(
        z.object({ data: Payment }),
        await http.authCall<unknown>("GET", `${PAYMENTS}/${segment(paymentId)}`, { signal }),
        "Payment",
      ).data;
    },
    async page(
      filters: PaymentListFilters,
      cursor: string | null,
      signal?: AbortSignal,
    ): Promise<{ payments: Payment[]; nextCursor: string | null }> {
      const body = await http.authCall<unknown>(
        "GET",
        withQuery(PAYMENTS, { ...filters, limit: PAYMENT_PAGE_SIZE, cursor }),
        { signal },
      );
      const reply = parsed(PaymentList, body, "Payment list");
      return { payments: reply.data, nextCursor: reply.pagination.next_cursor };
    },
    async detail(paymentId: string, signal?: AbortSignal): Promise<PaymentDetail> {
      return parsed(
        z.object({ data: PaymentDetail }),
        await http.authCall<unknown>("GET", `${PAYMENTS}/${segment(paymentId)}/detail`, { signal }),
        "Payment detail",
      ).data;
    },
    recipients: {
      async list(signal?: AbortSignal): Promise<Recipient[]> {
        return parsed(
          z.object({ data: z.array(Recipient) }),
          await http.authCall<unknown>("GET", `${PAYMENTS}/recipients`, { signal }),
          "Recipients",
        ).data;
      },
      async add(input: z.input<typeof CreateRecipientInput>): Promise<Recipient> {
        return parsed(
          z.object({ data: Recipient }),
          await http.authCall<unknown>("POST", `${PAYMENTS}/recipients`, { body: input }),
          "Recipient",
        ).data;
      },
      async rename(recipientId: string, label: string): Promise<Recipient> {
        return parsed(
          z.object({ data: Recipient }),
          await http.authCall<unknown>("PATCH", `${PAYMENTS}/recipients/${segment(recipientId)}`, { body: { label } }),
          "Recipient",
        ).data;
      },
      async remove(recipientId: string): Promise<void> {
        await http.authCall<unknown>("DELETE", `${PAYMENTS}/recipients/${segment(recipientId)}`);
      },
    },
  };
}

export type SendMoneyApi = ReturnType<typeof sendMoneyEndpoints>;
export const sendMoneyApi: SendMoneyApi = sendMoneyEndpoints(appHttp);

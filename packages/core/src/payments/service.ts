import type { CoreContext } from "../shared/context";
import type { PublicUser } from "../auth/model";
import type { CreatePaymentReply } from "./model";

/** Who is asking: the signed-in user (the HTTP layer's `auth` fits this shape). */
export interface PaymentCaller {
  userId: string;
  user: Pick<PublicUser, "id" | "email" | "first_name" | "last_name">;
}

/**
 * Initiates a payment (POST /v1/payments, the stream's initiatePayment command): validates,
 * resolves the payee, routes, and holds amount + fee in one transaction. Returns the reply body
 * (a JSON string) so an Idempotency-Key replay answers byte for byte.
 */
export async function initiatePayment(_ctx: CoreContext, _caller: PaymentCaller, _input: unknown, _idempotencyKey: string | null): Promise<{ body: string; replayed: boolean; reply: CreatePaymentReply }> {
  throw new Error("initiatePayment: not implemented yet");
}

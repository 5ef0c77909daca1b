/**
 * How the payments service asks for a payment's next step to be run (contract §3). The cloud
 * driver sends a delayed queue message, the local driver sets a timer; tests leave it out and
 * call advancePayment themselves. Optional: without a scheduler the sweeper (duePayments) finds
 * every due step, so a lost schedule only delays a payment, never strands it.
 */
export interface PaymentScheduler {
  schedule(paymentId: string, dueAt: Date): Promise<void>;
}

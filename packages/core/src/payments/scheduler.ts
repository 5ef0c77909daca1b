/**
 * How the payments service asks for a payment's next step to be run
 * (docs/payments-and-rails.md#who-advances-a-payment). The cloud driver sends a delayed queue
 * message, the local driver sets a timer; tests leave it out and call advancePayment themselves.
 * Optional: without a scheduler the sweeper finds every due step, so a lost schedule only delays a
 * payment, never strands it.
 */
export interface PaymentScheduler {
  /**
   * Run the payment's step at `runAt`. `step` names the step (its due time, the payment's
   * nextDueAt when it was asked for): a driver that delivers the request late can tell that the
   * step was already run by someone else and drop it. It differs from `runAt` for the retry of a
   * failed step and for a swept step.
   */
  schedule(paymentId: string, runAt: Date, step?: string): Promise<void>;
}

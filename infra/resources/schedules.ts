/** Recurring jobs. The cloud runs them with EventBridge cron; infra/local with timers. */
export const schedules = {
  nightlyReconciliation: {
    id: "NightlyReconciliation",
    description: "Reconciles the day's settlement files against the ledger",
    /** 02:00 UTC every day, after the rails' settlement files have landed. */
    cron: "cron(0 2 * * ? *)",
    localIntervalMs: 24 * 60 * 60 * 1000,
  },
  paymentSweeper: {
    id: "PaymentSweeper",
    description: "Claims overdue payment steps whose queue message was lost and enqueues them again",
    /**
     * Every minute, EventBridge's finest grain: a step whose message was lost waits at most about
     * this long (plus the sweeper's grace) before it runs. The queue drives every step on time;
     * the sweep is the safety net, so it does not need to be finer.
     */
    cron: "rate(1 minute)",
    /**
     * The embedded stack sweeps more often: its timers live in one process, so after a restart
     * the sweep is what resumes every payment, and a developer should not wait a minute.
     */
    localIntervalMs: 2_000,
  },
  webhookSweeper: {
    id: "WebhookSweeper",
    description:
      "Enqueues every owner with an enabled webhook endpoint, so a lost stream record or message only delays",
    /**
     * Every minute: the stream and the queue drive deliveries within seconds; the sweep is the
     * safety net, and what brings back retries scheduled beyond SQS's 15-minute delay.
     */
    cron: "rate(1 minute)",
    /** The embedded stack's dispatcher polls every owner this often (besides the commit hints). */
    localIntervalMs: 2_000,
  },
} as const;

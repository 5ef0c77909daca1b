/** Recurring jobs. The cloud runs them with EventBridge cron; infra/local with timers. */
export const schedules = {
  nightlyReconciliation: {
    id: "NightlyReconciliation",
    /** 02:00 UTC every day, after the rails' settlement files have landed. */
    cron: "cron(0 2 * * ? *)",
    localIntervalMs: 24 * 60 * 60 * 1000,
  },
} as const;

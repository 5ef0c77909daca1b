/**
 * Business constants of the ledger workspace (docs/product/ledger-workspace.md#constants);
 * components import them from here.
 */

/** Transaction history is read as one page of 50 from offset 0. */
export const HISTORY_LIMIT = 50;
export const HISTORY_OFFSET = 0;

/** The overview shows this many recent activities and account summaries. */
export const OVERVIEW_ITEMS = 3;

export const DEFAULT_TRANSFER_AMOUNT = "100";
export const DEFAULT_DEPOSIT_AMOUNT = "500";

/** The connect wizard's simulated bank authorisation, and its pause on the success step. */
export const AUTHORISE_DELAY_MS = 1500;
export const SUCCESS_CLOSE_DELAY_MS = 1200;

/** Analytics periods offered by the chart (the API takes 1..365 days). */
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = 30;

/** The server's default test balance (core ledger/model TEST_BALANCE_DEFAULT_MAJOR). */
export const TEST_BALANCE_AMOUNT = "1000";

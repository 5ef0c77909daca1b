import { LEDGER_MESSAGES } from "@fintech/core/ledger/model";

/** Exact wording of docs/product/ledger-workspace.md#messages for the ledger workspace; tests compare against these. */
export const LEDGER_UI_MESSAGES = {
  depositFailed: "Failed to create deposit",
  testBalanceFailed: "Failed to create test balance",
  balanceFailed: "Failed to retrieve balance",
  transferFailed: "Failed to complete transfer",
  noDrafts: "No draft transactions to approve",
  bulkFailed: "Bulk approve failed",
  someFailed: (count: number) => `${count} transactions failed to approve`,
  bulkCompleted: (approved: number, failed: number) => `Bulk approve completed: ${approved} approved, ${failed} failed`,
  postFailed: "Failed to post transaction",
  unpostFailed: "Failed to unpost transaction",
  networkError: (message: string) => `Network error: ${message}`,
  /** Account creation without any reply. */
  accountNetwork: "Network error. Please try again.",
  accountNameRequired: "Account name is required",
  accountNumberRequired: "Account number is required",
  accountRequired: "Please choose an account",
  amountRequired: "Amount is required",
  /** Ledger commands (docs/product/ledger-workspace.md#messages): a refusal, and no reply at all. */
  commandFailed: "Ledger command failed",
  notConnected: "Not connected to ledger service",
  expectedBalanceRequired: "Expected balance is required",
  /** The server's own wording. */
  sameAccount: LEDGER_MESSAGES.sameAccount,
} as const;

/** What a network failure (no reply at all) is called after 'Network error: '. */
export const NETWORK_FAILURE_DETAIL = "the server could not be reached";

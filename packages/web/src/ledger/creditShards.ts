import type { LedgerAccount } from "../api/types";

/**
 * Hot receiving accounts in the workspace (docs/ledger.md#turning-it-on): an account whose
 * incoming credits are spread over balance shards shows a chip; an administrator may spread an
 * account's credits (a one-way change), everyone else only sees the chip.
 */

export const CREDIT_SHARDS_TEXT = {
  button: "Spread incoming credits",
  title: "Spread incoming credits?",
  explanation:
    "Money coming into this account will land on separate balance shards, so many payments can arrive at the same moment without waiting for each other. Balances, history and transfers out work as before.",
  oneWay: "This cannot be undone from the app.",
  confirm: "Spread credits",
  busy: "Spreading…",
  failed: "Failed to spread the incoming credits",
} as const;

type ShardedAccount = Pick<LedgerAccount, "credit_shards">;

/** The chip's text, or null for an account whose credits all land on its one balance chain. */
export const creditShardsChip = (account: ShardedAccount): string | null =>
  account.credit_shards > 0 ? `Credits on ${account.credit_shards} shards` : null;

/** Only administrators convert, and only accounts not converted yet (the server also refuses others). */
export const maySpreadCredits = (account: ShardedAccount, role: string | undefined): boolean =>
  role === "admin" && account.credit_shards === 0;

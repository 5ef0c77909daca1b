import type { Currency } from "../money/model";
import type { JournalType, MarkerOperation, Operation, Side, Totals } from "./model";

/**
 * The stored shape of a balance chain's versions. Its own module so that accounts (which writes a
 * chain's genesis version) and the balance reads and writes share it without importing each other.
 */

/** One immutable balance version: the history item, the concurrency guard and the outbox record. */
export interface VersionItem extends Totals {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  entity: "balance";
  account_id: string;
  chain: string;
  owner_id: string;
  currency: Currency;
  normal_side: Side;
  version: number;
  committed_at: string;
  balance: number;
  available: number;
  operation: Operation | "open" | MarkerOperation;
  tx_id: string | null;
  tx_type: JournalType | null;
  side: Side | null;
  amount: number;
  /** Set when this change left the available balance under the account's alert threshold. */
  low_balance: boolean;
  /**
   * The account's controls as of this version, carried forward by every version so the write
   * path (which reads the head anyway) enforces them at once in every process. Older versions
   * lack them: see chainState.
   */
  low_balance_threshold?: number | null;
  locked?: boolean;
  lock_reason?: string | null;
  /**
   * On a customer account's main chain: how many credit shards the account has from this version
   * on (absent: none). Carried forward like the controls, so a writer that builds on the main
   * head knows every chain the account's balance is spread over (credit-shards.ts).
   */
  credit_shards?: number;
  /** Marker versions: who made the change, and a reconciliation's figures. */
  actor?: { id: string; name: string } | null;
  reason?: string | null;
  reconciliation?: { expected: number; ledger: number; variance: number; reconciled: boolean };
}

export interface ChainState {
  locked: boolean;
  lock_reason: string | null;
  low_balance_threshold: number | null;
}

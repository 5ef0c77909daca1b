import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { sendWrite, type TransactItems } from "./write-path";

/**
 * What a journal write may carry besides the ledger's own items (another domain's items, in the
 * same transaction), and sending it so that a refusal of those items is told apart.
 */

/** DynamoDB's limit of items per TransactWriteItems. */
export const MAX_TRANSACT_ITEMS = 100;

/**
 * Items another domain writes in the same transaction as a journal change (a payment and its
 * history with the journal that holds or moves its money). Built from the commit instant, which
 * is only known once the ledger has planned its versions.
 */
export type ExtraItems = TransactItems | ((at: string) => TransactItems);

export interface JournalWriteOptions {
  /** Appended to the journal's TransactWriteItems: all commit or none. */
  extraItems?: ExtraItems;
  /**
   * A payment's journal (type "payment") is its hold: only the payment settles it (posts or voids
   * it with its own change). The ledger's post/unpost routes leave it alone.
   */
  settlesPayment?: boolean;
  /**
   * A payment's post may settle less than it held (its fee came out lower than the fee held): the
   * amount posted per entry, in the journal's entry order, each at most the entry's amount and
   * balanced like any journal. The rest of each entry is released from the hold, in the same
   * version; the posted journal shows the settled amounts (entries settled at 0 are left out).
   */
  settledAmounts?: readonly number[];
}

/**
 * The caller's extra items refused the write (one of their conditions failed): the journal
 * change did not happen, and retrying it would not help. `codes` are the extra items' reasons.
 */
export class ExtraItemsRefused extends Error {
  constructor(readonly codes: string[]) {
    super(`The write's own items were refused: ${codes.join(", ")}`);
    this.name = "ExtraItemsRefused";
  }
}

/** The extra items for a commit at `at`, checked against the transaction's item limit. */
export function resolveExtras(extra: ExtraItems | undefined, at: string, ledgerItems: number): TransactItems {
  const items = typeof extra === "function" ? extra(at) : (extra ?? []);
  if (ledgerItems + items.length > MAX_TRANSACT_ITEMS)
    throw new Error(
      `A journal write may carry at most ${MAX_TRANSACT_ITEMS - ledgerItems} extra items, not ${items.length}`,
    );
  return items;
}

/** Sends the write; a failed condition on one of the caller's extra items is ExtraItemsRefused. */
export async function sendWithExtras(
  ctx: CoreContext,
  ledgerItems: TransactItems,
  extras: TransactItems,
  versions: Parameters<typeof sendWrite>[2],
): Promise<void> {
  try {
    await sendWrite(ctx, [...ledgerItems, ...extras], versions);
  } catch (error) {
    const codes = cancellationCodes(error);
    const extraCodes = codes && extras.length > 0 ? codes.slice(ledgerItems.length) : [];
    if (extraCodes.includes("ConditionalCheckFailed")) throw new ExtraItemsRefused(extraCodes);
    throw error;
  }
}

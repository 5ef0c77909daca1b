import type { FormCurrency, LedgerAccount, LedgerTransaction, TransferInput } from "../api/types";
import { keyFor, settled, type ActionKey } from "./actionKey";
import { DEFAULT_TRANSFER_AMOUNT } from "./constants";
import { LEDGER_UI_MESSAGES } from "./messages";
import { formCurrency } from "./money";

/**
 * The transfer wizard (docs/product/ledger-workspace.md#transfer-wizard): 1 source, 2 destination
 * (source excluded), 3 amount, currency and description, 4 confirm; then the server's result. The
 * Idempotency-Key is made when the confirm step is reached and kept for every attempt of that same
 * transfer, so a double click or a retry cannot pay twice.
 */
export type TransferStep = 1 | 2 | 3 | 4 | 5;
export const TRANSFER_STEP_LABELS = ["From", "To", "Amount", "Confirm"] as const;

export interface TransferState {
  step: TransferStep;
  fromId: string | null;
  toId: string | null;
  amount: string;
  currency: FormCurrency;
  description: string;
  /** The key of the transfer shown on the confirm step. */
  action: ActionKey | null;
  submitError: string | null;
  result: LedgerTransaction | null;
}

export type TransferAction =
  | { type: "from"; accountId: string; currency: string }
  | { type: "to"; accountId: string }
  /** The amount step's form was submitted (and passed formSchemas.transferDetailsSchema). */
  | { type: "details"; values: { amount: string; currency: FormCurrency; description: string }; makeKey?: () => string }
  | { type: "back" }
  | { type: "failed"; message: string }
  | { type: "done"; result: LedgerTransaction };

export function initialTransferState(fromId: string | null = null, currency: string = "USD"): TransferState {
  return {
    step: fromId ? 2 : 1,
    fromId,
    toId: null,
    amount: DEFAULT_TRANSFER_AMOUNT,
    currency: formCurrency(currency),
    description: "",
    action: null,
    submitError: null,
    result: null,
  };
}

/** The request the confirm step sends. */
export function transferBody(
  state: Pick<TransferState, "fromId" | "toId" | "amount" | "currency" | "description">,
): TransferInput {
  const body: TransferInput = {
    from_account_id: state.fromId ?? "",
    to_account_id: state.toId ?? "",
    amount: state.amount.trim(),
    currency: state.currency,
  };
  if (state.description.trim()) body.description = state.description.trim();
  return body;
}

/**
 * Destinations for a source: every other account; one in another currency is reached through an
 * FX quote (`converted`: the confirm step asks for one).
 */
export function destinationsFor(accounts: readonly LedgerAccount[], fromId: string | null) {
  const source = accounts.find((account) => account.id === fromId);
  return accounts
    .filter((account) => account.id !== fromId)
    .map((account) => ({
      account,
      selectable: true,
      converted: Boolean(source) && account.currency !== source?.currency,
    }));
}

export function transferReducer(state: TransferState, action: TransferAction): TransferState {
  switch (action.type) {
    case "from":
      return {
        ...state,
        step: 2,
        fromId: action.accountId,
        toId: state.toId === action.accountId ? null : state.toId,
        currency: formCurrency(action.currency),
        submitError: null,
      };
    case "to":
      if (action.accountId === state.fromId) return { ...state, submitError: LEDGER_UI_MESSAGES.sameAccount };
      return { ...state, step: 3, toId: action.accountId, submitError: null };
    case "details": {
      const next = { ...state, ...action.values };
      // One key per transfer: the same unfinished request keeps its key, any change gets a new one.
      return { ...next, step: 4, submitError: null, action: keyFor(state.action, transferBody(next), action.makeKey) };
    }
    case "back":
      if (state.step <= 1 || state.step === 5) return state;
      return { ...state, step: (state.step - 1) as TransferStep, submitError: null };
    case "failed":
      return { ...state, submitError: action.message };
    case "done":
      return {
        ...state,
        step: 5,
        result: action.result,
        submitError: null,
        action: state.action ? settled(state.action) : null,
      };
  }
}

import type { DepositInput, FormCurrency, TestBalanceInput } from "../api/types";
import { amountError } from "./transferWizard";
import { LEDGER_UI_MESSAGES } from "./messages";

/** The deposit form of spec 000 §2.7: account and amount required, amount step 0.01. */
export interface DepositFields {
  accountId: string;
  amount: string;
  currency: FormCurrency;
  description: string;
}

export type DepositErrors = Partial<Record<"accountId" | "amount", string>>;

export function validateDeposit(fields: DepositFields): DepositErrors {
  const errors: DepositErrors = {};
  if (!fields.accountId) errors.accountId = LEDGER_UI_MESSAGES.accountRequired;
  const amount = amountError(fields.amount, fields.currency);
  if (amount) errors.amount = amount;
  return errors;
}

export function depositBody(fields: DepositFields): DepositInput {
  const body: DepositInput = { account_id: fields.accountId, amount: fields.amount.trim(), currency: fields.currency };
  if (fields.description.trim()) body.description = fields.description.trim();
  return body;
}

/**
 * Get Test Balance needs only the account: the server adds its default sandbox amount (1,000)
 * in the account's currency; the chosen currency is sent so a mismatch is refused, not ignored.
 */
export function testBalanceBody(fields: DepositFields): TestBalanceInput {
  return { account_id: fields.accountId, currency: fields.currency };
}

/** The API Response box shows the reply as text: the JSON as the server sent it, indented. */
export const responseText = (reply: unknown): string => JSON.stringify(reply, null, 2);

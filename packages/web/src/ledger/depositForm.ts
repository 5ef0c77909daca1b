import type { DepositInput, FormCurrency, LedgerAccount, TestBalanceInput } from "../api/types";
import { FORM_CURRENCIES } from "../api/types";
import { DEFAULT_DEPOSIT_AMOUNT } from "./constants";
import type { DepositFormValues } from "./formSchemas";
import { formCurrency } from "./money";

/**
 * The deposit form of docs/product/ledger-workspace.md#deposit-form: account and amount required,
 * amount step 0.01 (checked by formSchemas.depositFormSchema, with the server's rules).
 */
export type DepositFields = DepositFormValues;

/**
 * The form when it opens: the chosen (or only) account, the default 500
 * (docs/product/ledger-workspace.md#deposit-form), in that account's currency.
 */
export function initialDeposit(account: LedgerAccount | undefined): DepositFields {
  return {
    accountId: account?.id ?? "",
    amount: DEFAULT_DEPOSIT_AMOUNT,
    currency: formCurrency(account?.currency),
    description: "",
  };
}

/**
 * The form after a deposit went through: the same account, but no amount and no description, so
 * a second click on Create Deposit asks for an amount instead of depositing the same again.
 */
export const afterDeposit = (fields: DepositFields): DepositFields => ({ ...fields, amount: "", description: "" });

/** Until FX exists money moves in the account's own currency: the picker offers just that one. */
export const currenciesFor = (account: LedgerAccount | undefined): readonly FormCurrency[] =>
  account ? [formCurrency(account.currency)] : FORM_CURRENCIES;

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

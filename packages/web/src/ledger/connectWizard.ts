import { CreateAccountInput } from "@fintech/core/ledger/model";
import type { FormCurrency, NewLedgerAccount } from "../api/types";
import type { BankProvider, ConnectCountry } from "./bankProvidersSeed";
import { LEDGER_UI_MESSAGES } from "./messages";

/**
 * The connect-account wizard (docs/product/ledger-workspace.md#connect-account-wizard): 1 country,
 * 2 provider (manual entry jumps to 3; a provider opens a simulated authorisation that moves to 3
 * with pre-filled details), 3 details, 4 review, 5 success. Back returns one step.
 */
export type ConnectStep = 1 | 2 | 3 | 4 | 5;
export const CONNECT_STEP_LABELS = ["Country", "Bank", "Details", "Review", "Done"] as const;

export interface AccountDetails {
  name: string;
  accountNumber: string;
  description: string;
  currency: FormCurrency;
}

export type DetailErrors = Partial<Record<keyof AccountDetails, string>>;

export interface ConnectState {
  step: ConnectStep;
  country: ConnectCountry | null;
  /** null: manual entry. */
  provider: BankProvider | null;
  /** The provider whose simulated authorisation is running. */
  authorising: BankProvider | null;
  details: AccountDetails;
  /** The server's refusal (or the network error) of the last attempt. */
  submitError: string | null;
  createdAccountId: string | null;
}

export type ConnectAction =
  | { type: "country"; country: ConnectCountry }
  | { type: "manual" }
  | { type: "provider"; provider: BankProvider }
  | { type: "authorised"; details: AccountDetails }
  | { type: "cancel-authorise" }
  /** The details form was submitted (and passed formSchemas.accountDetailsSchema). */
  | { type: "details"; details: AccountDetails }
  | { type: "back" }
  | { type: "failed"; message: string }
  | { type: "created"; accountId: string };

const emptyDetails = (currency: FormCurrency = "USD"): AccountDetails => ({
  name: "",
  accountNumber: "",
  description: "",
  currency,
});

export const initialConnectState: ConnectState = {
  step: 1,
  country: null,
  provider: null,
  authorising: null,
  details: emptyDetails(),
  submitError: null,
  createdAccountId: null,
};

/** The ledger account body the review step sends (a bank account). */
export function accountBody(details: AccountDetails): NewLedgerAccount {
  const body: NewLedgerAccount = {
    name: details.name.trim(),
    account_number: details.accountNumber.trim(),
    currency: details.currency,
    type: "bank",
  };
  if (details.description.trim()) body.description = details.description.trim();
  return body;
}

/**
 * Account name and number are required (docs/product/ledger-workspace.md#connect-account-wizard),
 * description optional; the other rules (lengths, the account number's format) are the server's own
 * schema, so the messages match.
 */
export function validateDetails(details: AccountDetails): DetailErrors {
  const errors: DetailErrors = {};
  if (!details.name.trim()) errors.name = LEDGER_UI_MESSAGES.accountNameRequired;
  if (!details.accountNumber.trim()) errors.accountNumber = LEDGER_UI_MESSAGES.accountNumberRequired;
  const parsed = CreateAccountInput.safeParse(accountBody(details));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field =
        issue.path[0] === "account_number"
          ? "accountNumber"
          : issue.path[0] === "name"
            ? "name"
            : issue.path[0] === "description"
              ? "description"
              : "currency";
      errors[field] ??= issue.message;
    }
  }
  return errors;
}

/** Details a provider "returns" after authorisation: sample values, a fresh account number. */
export function providerDetails(
  provider: BankProvider,
  country: ConnectCountry,
  random: () => number = Math.random,
): AccountDetails {
  const digits = Array.from({ length: 10 }, () => Math.floor(random() * 10)).join("");
  return {
    name: `${provider.name} Checking`,
    accountNumber: `${provider.code}-${digits.slice(0, 4)}-${digits.slice(4)}`,
    description: `Connected via ${provider.name} (simulated)`,
    currency: country.currency,
  };
}

export function connectReducer(state: ConnectState, action: ConnectAction): ConnectState {
  switch (action.type) {
    case "country":
      return {
        ...state,
        step: 2,
        country: action.country,
        details: emptyDetails(action.country.currency),
        submitError: null,
      };
    case "manual":
      return {
        ...state,
        step: 3,
        provider: null,
        authorising: null,
        details: emptyDetails(state.country?.currency),
        submitError: null,
      };
    case "provider":
      return state.step === 2 ? { ...state, authorising: action.provider } : state;
    case "authorised":
      if (!state.authorising) return state;
      return {
        ...state,
        step: 3,
        provider: state.authorising,
        authorising: null,
        details: action.details,
        submitError: null,
      };
    case "cancel-authorise":
      return { ...state, authorising: null };
    case "details":
      return state.step === 3 ? { ...state, step: 4, details: action.details, submitError: null } : state;
    case "back":
      if (state.step <= 1 || state.step === 5) return state;
      return { ...state, step: (state.step - 1) as ConnectStep, authorising: null, submitError: null };
    case "failed":
      return { ...state, submitError: action.message };
    case "created":
      return { ...state, step: 5, createdAccountId: action.accountId, submitError: null };
  }
}

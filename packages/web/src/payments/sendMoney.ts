import type { z } from "zod";
import { CURRENCIES, parseAmount, type Currency } from "@fintech/core/money/model";
import {
  CreatePaymentInput,
  type CreatePaymentRequest,
  type PaymentStatus,
  type Recipient,
} from "@fintech/core/payments/model";
import { ApiError } from "../api/errors";
import type { LedgerAccount } from "../api/types";

/**
 * Send money's form, as pure functions: the fields, the request they make (checked with the very
 * schema the API parses it with, so the browser says what the server would), what a refusal
 * says, and how a sent payment's status reads.
 */

export type PayeeKind = "user" | "external";

export interface SendForm {
  fromAccountId: string;
  payeeKind: PayeeKind;
  email: string;
  name: string;
  accountNumber: string;
  bankCode: string;
  country: string;
  amount: string;
  description: string;
  /** Save the payee to the saved recipients once the payment is sent. */
  save: boolean;
  saveLabel: string;
}

export type SendField =
  | "fromAccountId"
  | "email"
  | "name"
  | "accountNumber"
  | "bankCode"
  | "country"
  | "amount"
  | "description"
  | "saveLabel";
export type SendErrors = Partial<Record<SendField, string>>;

export const emptySendForm = (fromAccountId = ""): SendForm => ({
  fromAccountId,
  payeeKind: "user",
  email: "",
  name: "",
  accountNumber: "",
  bankCode: "",
  country: "",
  amount: "",
  description: "",
  save: false,
  saveLabel: "",
});

export const SEND_MESSAGES = {
  fromAccount: "Choose the account to pay from",
  emailRequired: "Enter the email address of the person you pay",
  saveLabel: "Give the recipient a name to save it under (1 to 60 characters)",
} as const;

const isCurrency = (value: string): value is Currency => Object.hasOwn(CURRENCIES, value);

/** Accounts money can leave: active ones in a currency payments carry. */
export const payingAccounts = (accounts: readonly LedgerAccount[]): LedgerAccount[] =>
  accounts.filter((account) => account.status === "ACTIVE" && isCurrency(account.currency));

/** The form filled with a saved recipient's payee (the rest of the form is kept). */
export function fillFromRecipient(form: SendForm, recipient: Recipient): SendForm {
  if (recipient.kind === "user") return { ...form, payeeKind: "user", email: recipient.email ?? "", save: false };
  const beneficiary = recipient.beneficiary;
  return {
    ...form,
    payeeKind: "external",
    name: beneficiary?.name ?? "",
    accountNumber: beneficiary?.accountNumber ?? "",
    bankCode: beneficiary?.bankCode ?? "",
    country: beneficiary?.country ?? "",
    save: false,
  };
}

const FIELD_OF_PATH: Record<string, SendField> = {
  fromAccountId: "fromAccountId",
  toEmail: "email",
  "beneficiary.name": "name",
  "beneficiary.accountNumber": "accountNumber",
  "beneficiary.bankCode": "bankCode",
  "beneficiary.country": "country",
  amount: "amount",
  description: "description",
};

export type SendRequestResult =
  | { ok: true; request: CreatePaymentRequest; currency: Currency }
  | { ok: false; errors: SendErrors };

/** The payment the form describes, or what is wrong with each field (the first problem of each). */
export function sendRequest(form: SendForm, userId: string, accounts: readonly LedgerAccount[]): SendRequestResult {
  const errors: SendErrors = {};
  const from = accounts.find((account) => account.id === form.fromAccountId);
  if (!from || !isCurrency(from.currency)) errors.fromAccountId = SEND_MESSAGES.fromAccount;
  const currency: Currency = from && isCurrency(from.currency) ? from.currency : "USD";
  const payee: Pick<CreatePaymentRequest, "toEmail" | "beneficiary"> =
    form.payeeKind === "user"
      ? { toEmail: form.email.trim() }
      : {
          beneficiary: {
            name: form.name,
            accountNumber: form.accountNumber,
            country: form.country,
            ...(form.bankCode.trim() ? { bankCode: form.bankCode } : {}),
          },
        };
  if (form.payeeKind === "user" && !form.email.trim()) errors.email = SEND_MESSAGES.emailRequired;
  const request: CreatePaymentRequest = {
    userId,
    fromAccountId: form.fromAccountId,
    amount: form.amount.trim(),
    currency,
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    ...payee,
  };
  const parsed = CreatePaymentInput.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues as z.core.$ZodIssue[]) {
      const field = FIELD_OF_PATH[issue.path.join(".")];
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  const amount = parseAmount(form.amount.trim(), currency);
  if (!amount.ok && !errors.amount) errors.amount = amount.message;
  if (form.save && (form.saveLabel.trim().length < 1 || form.saveLabel.trim().length > 60))
    errors.saveLabel = SEND_MESSAGES.saveLabel;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request, currency };
}

/** A refusal as the screen shows it: the server's message, and the way to verification when that is what is missing. */
export interface SendProblem {
  message: string;
  code: string | null;
  /** Verification is missing: the screen links to /kyc. */
  needsVerification: boolean;
}

export function sendProblem(error: unknown, fallback: string): SendProblem {
  if (error instanceof ApiError)
    return {
      message: error.reason ?? error.message,
      code: error.code,
      needsVerification: error.code === "kyc_required",
    };
  return {
    message: error instanceof Error && error.message ? error.message : fallback,
    code: null,
    needsVerification: false,
  };
}

export type StatusTone = "info" | "success" | "error" | "waiting";

/** The status line's colour per tone, readable in both themes. */
export const TONE_TEXT: Record<StatusTone, string> = {
  info: "text-slate-900 dark:text-white",
  success: "text-emerald-800 dark:text-emerald-300",
  error: "text-red-700 dark:text-red-300",
  waiting: "text-amber-900 dark:text-amber-200",
};

/** A payment's status in words for its payer: what it means now, never why it was screened. */
export function statusView(
  status: PaymentStatus,
  failureReason: string | null,
): { title: string; detail: string; tone: StatusTone; final: boolean } {
  switch (status) {
    case "pending":
      return { title: "Sending", detail: "The payment is queued for its rail.", tone: "info", final: false };
    case "processing":
      return { title: "On its way", detail: "The rail is carrying the payment.", tone: "info", final: false };
    case "completed":
      return {
        title: "Sent",
        detail: "The payment arrived: the amount and fee were taken from your account.",
        tone: "success",
        final: true,
      };
    case "failed":
      return {
        title: "Not sent",
        detail: failureReason ?? "The payment did not go through; the held amount and fee are available again.",
        tone: "error",
        final: true,
      };
    case "parked":
      return {
        title: "Not sent",
        detail: failureReason ?? "The payment could not be processed; the held amount and fee are available again.",
        tone: "error",
        final: true,
      };
    case "held_for_review":
      return {
        title: "Held for review",
        detail:
          "A person checks this payment before it moves. The amount and fee stay held until then; you will see the outcome here.",
        tone: "waiting",
        final: false,
      };
    case "awaiting_approval":
      return {
        title: "Awaiting approval",
        detail:
          "Payments of this size need a second person's approval before they move. The amount and fee stay held until then.",
        tone: "waiting",
        final: false,
      };
  }
}

/** A payee as lists show it: the email, or the beneficiary's name and the last four of the account. */
export function recipientSummary(recipient: Recipient): string {
  if (recipient.kind === "user") return recipient.email ?? "";
  const beneficiary = recipient.beneficiary;
  return beneficiary ? `${beneficiary.name} · …${beneficiary.accountNumber.slice(-4)} · ${beneficiary.country}` : "";
}

import { z } from "zod";
import { DepositInput, TransferInput } from "@fintech/core/ledger/model";
import { Currency, parseDecimal, parseSignedDecimal } from "@fintech/core/money/model";
import { FORM_CURRENCIES } from "../api/types";
import { validateDetails, type AccountDetails } from "./connectWizard";
import { LEDGER_UI_MESSAGES } from "./messages";
import { amountError } from "./money";

/**
 * The ledger forms' schemas for react-hook-form's zod resolver. Every rule is the server's own:
 * amounts go through core's money parser ('.5' is 0.50, letters are "Amount must be a number",
 * at most the currency's decimals), descriptions through core's request schemas, account details
 * through CreateAccountInput; so the browser and the API say the same words.
 */

interface CoreSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { message: string }[] } };
}

/** A text field checked by a core schema; its first message is the field's error. */
const checkedBy = (schema: CoreSchema) =>
  z.string().superRefine((value, ctx) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "Invalid value" });
  });

export const currencyField = z.enum(FORM_CURRENCIES);

/** The amount depends on the currency (JPY has no decimals), so it is checked beside it. */
function checkAmount(values: { amount: string; currency: string }, ctx: z.RefinementCtx) {
  const message = amountError(values.amount, values.currency);
  if (message) ctx.addIssue({ code: "custom", path: ["amount"], message });
}

export const depositFormSchema = z
  .object({
    accountId: z.string().min(1, LEDGER_UI_MESSAGES.accountRequired),
    amount: z.string(),
    currency: currencyField,
    description: checkedBy(DepositInput.shape.description),
  })
  .superRefine(checkAmount);
export type DepositFormValues = z.infer<typeof depositFormSchema>;

export const transferDetailsSchema = z
  .object({
    amount: z.string(),
    currency: currencyField,
    description: checkedBy(TransferInput.shape.description),
  })
  .superRefine(checkAmount);
export type TransferDetails = z.infer<typeof transferDetailsSchema>;

export const accountDetailsSchema = z
  .object({ name: z.string(), accountNumber: z.string(), description: z.string(), currency: currencyField })
  .superRefine((details: AccountDetails, ctx) => {
    for (const [field, message] of Object.entries(validateDetails(details)))
      ctx.addIssue({ code: "custom", path: [field], message });
  });

/** Core's amount messages speak of "Amount"; in these fields the figure has its own name. */
const renamed = (message: string, field: string) => message.replace(/^Amount\b/, field);

/** Reconcile: the balance the user expects (a statement's), signed, in the account's currency. */
export const reconcileFormSchema = z
  .object({ expectedBalance: z.string(), currency: Currency })
  .superRefine((values, ctx) => {
    const text = values.expectedBalance.trim();
    if (!text)
      return ctx.addIssue({
        code: "custom",
        path: ["expectedBalance"],
        message: LEDGER_UI_MESSAGES.expectedBalanceRequired,
      });
    const parsed = parseSignedDecimal(text, values.currency);
    if (!parsed.ok)
      ctx.addIssue({ code: "custom", path: ["expectedBalance"], message: renamed(parsed.message, "Expected balance") });
  });
export type ReconcileFormValues = z.infer<typeof reconcileFormSchema>;

/** The low-balance alert threshold: empty (or 0) removes it; otherwise a non-negative amount. */
export const thresholdFormSchema = z
  .object({ threshold: z.string(), currency: Currency })
  .superRefine((values, ctx) => {
    const text = values.threshold.trim();
    if (!text) return;
    const parsed = parseDecimal(text, values.currency);
    if (!parsed.ok)
      ctx.addIssue({ code: "custom", path: ["threshold"], message: renamed(parsed.message, "Threshold") });
  });
export type ThresholdFormValues = z.infer<typeof thresholdFormSchema>;

import { z } from "zod";
import { DepositInput, TransferInput } from "@fintech/core/ledger/model";
import { FORM_CURRENCIES } from "../api/types";
import { validateDetails, type AccountDetails } from "./connectWizard";
import { LEDGER_UI_MESSAGES } from "./messages";
import { amountError } from "./transferWizard";

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
    for (const [field, message] of Object.entries(validateDetails(details))) ctx.addIssue({ code: "custom", path: [field], message });
  });

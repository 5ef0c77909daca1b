import { z } from "zod";
import { AUTH_MESSAGES, linkToken } from "@fintech/core/auth/model";

/**
 * The change-email form, checked with the server's own words: a valid address (the server's
 * email rule, lower-cased) and the current password. What the server answers is neutral: the same
 * message whether or not the address is taken, so the form says only that.
 */
export const changeEmailFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.invalidEmail)
    .max(254, AUTH_MESSAGES.invalidEmail)
    .pipe(z.email(AUTH_MESSAGES.invalidEmail))
    .transform((value) => value.toLowerCase()),
  currentPassword: z
    .string()
    .min(1, AUTH_MESSAGES.currentPasswordRequired)
    .max(256, AUTH_MESSAGES.currentPasswordWrong),
});
export type ChangeEmailFormInput = z.input<typeof changeEmailFormSchema>;
export type ChangeEmailFormValues = z.output<typeof changeEmailFormSchema>;

/** The token of a confirmation link (/confirm-email?token=...), or null when it cannot be one. */
export function confirmationToken(search: string): string | null {
  return linkToken(search);
}

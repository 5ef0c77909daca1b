import { z } from "zod";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { ApiError } from "../api/errors";
import type { SessionUser } from "../session/sessionUser";

/**
 * The country step's contact fields (the start payload of docs/product/kyc.md#data: country, name,
 * email, phone) for react-hook-form's zod resolver, and how a failed start is told
 * (docs/product/kyc.md#messages).
 */

export const START_LIMITS = { name: 200, email: 254, phone: 20 } as const;

/**
 * The server's rule for a phone (E.164-ish: an optional +, digits with spaces, ( ) or -, 6 to 20
 * characters, ending in a digit), so the form refuses exactly what the start would.
 */
const PHONE = /^\+?[0-9][0-9 ()-]{4,18}[0-9]$/;

export const startFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Full name is required")
    .max(START_LIMITS.name, `Full name must be at most ${START_LIMITS.name} characters`),
  email: z
    .string()
    .trim()
    .min(1, "Email is required")
    .max(START_LIMITS.email, "Email is too long")
    .pipe(z.email("Please enter a valid email address")),
  phone: z
    .string()
    .trim()
    .min(1, { error: "Phone number is required", abort: true })
    .regex(PHONE, "Enter a phone number of 6 to 20 characters, e.g. +919876543210"),
});
export type StartFormValues = z.input<typeof startFormSchema>;

/** Name and email come from the signed-in user; the phone is asked for. */
export function startDefaults(user: SessionUser | null): StartFormValues {
  return {
    name: [user?.firstName, user?.lastName].filter((part) => part?.trim()).join(" "),
    email: user?.email ?? "",
    phone: "",
  };
}

export type StartFailure =
  | { kind: "exists"; title: string; message: string }
  | { kind: "failed"; title: string; message: string };

/**
 * docs/product/kyc.md#messages: a reply whose message contains "already has a KYC submission" is the warning KYC
 * Already Exists (the wizard then resumes the existing one); any other refusal shows the server's
 * message, and no reply at all "Failed to start KYC process. Please try again." (KYC Start Failed).
 */
export function startFailure(error: unknown): StartFailure {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("already has a KYC submission")) {
    return {
      kind: "exists",
      title: KYC_MESSAGES.alreadyStartedWarningTitle,
      message: KYC_MESSAGES.alreadyStartedWarning,
    };
  }
  const shown =
    error instanceof ApiError &&
    (error.kind === "server-message" || error.kind === "session-expired" || error.kind === "no-token")
      ? error.message
      : KYC_MESSAGES.startFailed;
  return { kind: "failed", title: "KYC Start Failed", message: shown };
}

import { z } from "zod";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { ApiError } from "../api/errors";
import type { SessionUser } from "../session/sessionUser";

/**
 * The country step's contact fields (spec 001 §3 start payload: country, name, email, phone) for
 * react-hook-form's zod resolver, and how a failed start is told (§8).
 */

export const START_LIMITS = { name: 100, email: 254, phone: 20, phoneDigitsMin: 7, phoneDigitsMax: 15 } as const;

/** The first thing wrong with a phone number, one message at a time. */
function phoneProblem(value: string): string | null {
  if (value === "") return "Phone number is required";
  if (value.length > START_LIMITS.phone) return `Phone number must be at most ${START_LIMITS.phone} characters`;
  if (!/^\+?[\d\s().-]+$/.test(value)) return "Phone number may hold digits, spaces, + ( ) - and . only";
  const digits = value.replace(/\D/g, "").length;
  if (digits < START_LIMITS.phoneDigitsMin || digits > START_LIMITS.phoneDigitsMax) return `Phone number must have ${START_LIMITS.phoneDigitsMin} to ${START_LIMITS.phoneDigitsMax} digits`;
  return null;
}

export const startFormSchema = z.object({
  name: z.string().trim().min(1, "Full name is required").max(START_LIMITS.name, `Full name must be at most ${START_LIMITS.name} characters`),
  email: z.string().trim().min(1, "Email is required").max(START_LIMITS.email, "Email is too long").pipe(z.email("Enter a valid email address")),
  phone: z.string().trim().superRefine((value, ctx) => {
    const problem = phoneProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});
export type StartFormValues = z.input<typeof startFormSchema>;

/** Name and email come from the signed-in user; the phone is asked for. */
export function startDefaults(user: SessionUser | null): StartFormValues {
  return { name: [user?.firstName, user?.lastName].filter((part) => part?.trim()).join(" "), email: user?.email ?? "", phone: "" };
}

export type StartFailure =
  | { kind: "exists"; title: string; message: string }
  | { kind: "failed"; title: string; message: string };

/**
 * Spec 001 §8: a reply whose message contains "already has a KYC submission" is the warning KYC
 * Already Exists (the wizard then resumes the existing one); any other refusal shows the server's
 * message, and no reply at all "Failed to start KYC process. Please try again." (KYC Start Failed).
 */
export function startFailure(error: unknown): StartFailure {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("already has a KYC submission")) {
    return { kind: "exists", title: KYC_MESSAGES.alreadyStartedWarningTitle, message: KYC_MESSAGES.alreadyStartedWarning };
  }
  const shown = error instanceof ApiError && (error.kind === "server-message" || error.kind === "session-expired" || error.kind === "no-token") ? error.message : KYC_MESSAGES.startFailed;
  return { kind: "failed", title: "KYC Start Failed", message: shown };
}

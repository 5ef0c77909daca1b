import { maskEmail } from "./email-change";
import { PRODUCT_NAME, type MailMessage } from "../mail/model";

/** The mail of password changes and resets and of email verification: plain text, one link at most. */

const minutes = (seconds: number) => Math.round(seconds / 60);

export function passwordResetMail(to: string, link: string, ttlSeconds: number): MailMessage {
  return {
    kind: "password-reset",
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: [
      `Someone asked to reset the password of the ${PRODUCT_NAME} account that signs in with ${to}.`,
      "",
      `If it was you, choose a new password within ${minutes(ttlSeconds)} minutes (the link works once):`,
      link,
      "",
      "Resetting signs out every session of the account. If it was not you, ignore this message: your password stays as it is.",
    ].join("\n"),
  };
}

/** To an address with no account: the same request gets a mail either way, and this one names no account. */
export function passwordResetNoAccountMail(to: string): MailMessage {
  return {
    kind: "password-reset-no-account",
    to,
    subject: `About your ${PRODUCT_NAME} password reset`,
    text: [
      `Someone asked to reset a ${PRODUCT_NAME} password for this address, ${to}, but no account signs in with it.`,
      "",
      "If it was you, you may have signed up with another address. If it was not, you can ignore this message.",
    ].join("\n"),
  };
}

export function passwordChangedMail(to: string, how: "changed" | "reset"): MailMessage {
  return {
    kind: "password-changed",
    to,
    subject: `Your ${PRODUCT_NAME} password was ${how}`,
    text: [
      `The password of your ${PRODUCT_NAME} account (${maskEmail(to)}) was just ${how}.`,
      how === "changed"
        ? "Every other session of the account was signed out."
        : "Every session of the account was signed out.",
      "",
      "If this was not you, reset your password now from the sign-in dialog (Forgot password?) and contact support.",
    ].join("\n"),
  };
}

export function verificationMail(to: string, firstName: string, link: string, ttlSeconds: number): MailMessage {
  return {
    kind: "email-verification",
    to,
    subject: `Verify your email address for ${PRODUCT_NAME}`,
    text: [
      `Hello ${firstName},`,
      "",
      `Confirm that ${to} is your address within ${Math.round(ttlSeconds / 3600)} hours:`,
      link,
      "",
      "Until then others cannot pay you by email. If you did not sign up, ignore this message.",
    ].join("\n"),
  };
}

import { z } from "zod";

/**
 * The platform's mail: what a message is, as every sender takes it. A service never sends mail
 * itself: it queues a message in the same transaction as the change the message is about
 * (outbox.ts), and a delivery run hands queued messages to a MailSender (sender.ts): the local
 * stack's file sink, or a provider such as SES in the cloud.
 */

/** How the platform names itself in mail. */
export const PRODUCT_NAME = "Fintech Platform";

/** What a message is for, e.g. "email-change-confirmation": how a sink, a test or a log finds it. */
export const MailKind = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, "A mail kind is lower-case words joined by hyphens");

export const MailMessage = z.object({
  to: z.email().max(254),
  subject: z.string().min(1).max(200),
  /** Plain text: every mail client shows it, and no markup can smuggle in a link. */
  text: z.string().min(1).max(20_000),
  kind: MailKind,
});
export type MailMessage = z.infer<typeof MailMessage>;

export const MAIL_STATUSES = ["queued", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A message in the outbox. Once sent, its text is dropped: it may carry a one-time link. */
export const OutboxMail = MailMessage.extend({
  id: z.string(),
  status: z.enum(MAIL_STATUSES),
  queued_at: z.string(),
  attempts: z.number().int().nonnegative(),
  sent_at: z.string().nullable(),
  /** The sender's id for the message (a file name, an SES message id). */
  provider_id: z.string().nullable(),
  text: z.string().max(20_000).optional(),
  /** A delivery run holds the message until then (epoch ms), so two runs never send it twice at once. */
  claimed_until: z.number().int().optional(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

/**
 * The message as a sender gets it: the outbox id (to make sends idempotent where the sender can)
 * and the sender address.
 */
export interface OutgoingMail extends MailMessage {
  id: string;
  from: string;
}

import type { OutgoingMail } from "./model";

/**
 * Where mail goes: the local stack's sink (files a developer reads with `npm run mail:list`),
 * or a provider in the cloud (SES). A sender either accepts the message, answering its own id
 * for it, or throws; a throw leaves the message queued for the next delivery run.
 */
export interface MailSender {
  /** For logs: "file-sink", "ses", ... */
  readonly name: string;
  send(mail: OutgoingMail): Promise<{ providerId: string }>;
}

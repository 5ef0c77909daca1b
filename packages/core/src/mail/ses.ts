import type { SESv2Client } from "@aws-sdk/client-sesv2";
import type { OutgoingMail } from "./model";
import type { MailSender } from "./sender";

/**
 * The cloud's MailSender: Amazon SES (API v2), from MAIL_FROM, a verified identity of the stage
 * (infra/stage.ts names it; the stack grants ses:SendEmail on that identity alone). The SDK is
 * imported on first use, so a function that never sends mail never loads it. The message is
 * plain text, as the outbox holds it; the outbox id rides along as a tag for tracing a bounce
 * back to the message.
 */
export function sesMailSender(options: { region?: string; client?: Pick<SESv2Client, "send"> } = {}): MailSender {
  let client: Promise<Pick<SESv2Client, "send">> | null = options.client ? Promise.resolve(options.client) : null;
  const sdk = () => import("@aws-sdk/client-sesv2");
  return {
    name: "ses",
    async send(mail: OutgoingMail) {
      client ??= sdk().then(({ SESv2Client }) => new SESv2Client(options.region ? { region: options.region } : {}));
      const { SendEmailCommand } = await sdk();
      const reply = await (await client).send(
        new SendEmailCommand({
          FromEmailAddress: mail.from,
          Destination: { ToAddresses: [mail.to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: "UTF-8" },
              Body: { Text: { Data: mail.text, Charset: "UTF-8" } },
            },
          },
          EmailTags: [
            { Name: "kind", Value: mail.kind },
            { Name: "outbox_id", Value: mail.id.replace(/[^A-Za-z0-9_-]/g, "_") },
          ],
        }),
      );
      if (!reply.MessageId) throw new Error("SES accepted the message without a message id");
      return { providerId: reply.MessageId };
    },
  };
}

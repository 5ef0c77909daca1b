import { SendEmailCommand, type SendEmailCommandInput } from "@aws-sdk/client-sesv2";
import { describe, expect, it } from "vitest";
import { sesMailSender } from "./ses";

/** The SES sender: what it asks SES to send, and that a refusal leaves the message for the next run. */
describe("the SES mail sender", () => {
  const mail = {
    id: "0b6f-42",
    from: "Fintech Platform <no-reply@mail.example>",
    to: "ada@example.com",
    subject: "Reset",
    text: "Link: https://app.example/reset-password?token=abc",
    kind: "password-reset",
  };

  it("sends the outbox message as plain text from MAIL_FROM, tagged with its kind and id, and answers SES's message id", async () => {
    const sent: SendEmailCommandInput[] = [];
    const sender = sesMailSender({
      client: {
        send: (async (command: SendEmailCommand) => {
          sent.push(command.input);
          return { MessageId: "ses-0001", $metadata: {} };
        }) as never,
      },
    });
    expect(sender.name).toBe("ses");
    expect(await sender.send(mail)).toEqual({ providerId: "ses-0001" });
    expect(sent).toEqual([
      {
        FromEmailAddress: mail.from,
        Destination: { ToAddresses: ["ada@example.com"] },
        Content: {
          Simple: {
            Subject: { Data: "Reset", Charset: "UTF-8" },
            Body: { Text: { Data: mail.text, Charset: "UTF-8" } },
          },
        },
        EmailTags: [
          { Name: "kind", Value: "password-reset" },
          { Name: "outbox_id", Value: "0b6f-42" },
        ],
      },
    ]);
  });

  it("throws when SES refuses, so the outbox keeps the message", async () => {
    const sender = sesMailSender({
      client: { send: (async () => Promise.reject(new Error("MessageRejected"))) as never },
    });
    await expect(sender.send(mail)).rejects.toThrow("MessageRejected");
  });
});

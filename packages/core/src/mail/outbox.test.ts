import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { mailKey } from "./keys";
import type { MailMessage, OutgoingMail } from "./model";
import { deliverQueuedMail, MAX_SEND_ATTEMPTS, queuedMail, queueMail } from "./outbox";
import type { MailSender } from "./sender";

/** The mail outbox: queued with the change it is about, sent at least once, its text dropped once sent. */
let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const message = (to: string): MailMessage => ({
  to,
  subject: "Hello",
  text: "A one-time link: https://example.com/x?token=abc",
  kind: "test-mail",
});

async function queue(...messages: MailMessage[]): Promise<void> {
  await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: messages.map((mail) => queueMail(ctx, mail)) }));
}

/** A sender that records what it got and fails while `failing` is set. */
function recordingSender() {
  const sent: OutgoingMail[] = [];
  const sender: MailSender & { failing: boolean } = {
    name: "recording",
    failing: false,
    async send(mail) {
      if (sender.failing) throw new Error("provider down");
      sent.push(mail);
      return { providerId: `sent-${sent.length}` };
    },
  };
  return { sender, sent };
}

const stored = async (id: string) =>
  (await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: mailKey(id), ConsistentRead: true }))).Item;

describe("the mail outbox", () => {
  it("sends each queued message once, oldest first, from MAIL_FROM, then keeps no text and leaves the queue", async () => {
    await queue(message("first@example.com"));
    await queue(message("second@example.com"));
    const queued = await queuedMail(ctx);
    expect(queued.map((mail) => mail.to)).toEqual(["first@example.com", "second@example.com"]);
    const { sender, sent } = recordingSender();
    expect(await deliverQueuedMail(ctx, sender)).toEqual({ sent: 2, failed: 0 });
    expect(sent.map((mail) => [mail.to, mail.from, mail.kind])).toEqual([
      ["first@example.com", ctx.config.MAIL_FROM, "test-mail"],
      ["second@example.com", ctx.config.MAIL_FROM, "test-mail"],
    ]);
    expect(await queuedMail(ctx)).toEqual([]);
    const item = await stored(queued[0]!.id);
    expect(item).toMatchObject({ status: "sent", provider_id: "sent-1", attempts: 1 });
    expect(item?.text).toBeUndefined();
    expect(await deliverQueuedMail(ctx, sender)).toEqual({ sent: 0, failed: 0 });
  });

  it("never sends one message twice at once from two runs", async () => {
    await queue(message("once@example.com"));
    const { sender, sent } = recordingSender();
    await Promise.all([deliverQueuedMail(ctx, sender), deliverQueuedMail(ctx, sender)]);
    expect(sent.filter((mail) => mail.to === "once@example.com")).toHaveLength(1);
  });

  it("keeps a message whose send failed for the next run, and gives up after MAX_SEND_ATTEMPTS", async () => {
    await queue(message("flaky@example.com"));
    const { sender, sent } = recordingSender();
    sender.failing = true;
    expect(await deliverQueuedMail(ctx, sender)).toEqual({ sent: 0, failed: 0 });
    sender.failing = false;
    expect(await deliverQueuedMail(ctx, sender)).toEqual({ sent: 1, failed: 0 });
    expect(sent.map((mail) => mail.to)).toEqual(["flaky@example.com"]);

    await queue(message("hopeless@example.com"));
    const [hopeless] = await queuedMail(ctx);
    sender.failing = true;
    const results = [];
    for (let run = 0; run < MAX_SEND_ATTEMPTS; run++) results.push(await deliverQueuedMail(ctx, sender));
    expect(results.at(-1)).toEqual({ sent: 0, failed: 1 });
    expect(await queuedMail(ctx)).toEqual([]);
    expect(await stored(hopeless!.id)).toMatchObject({ status: "failed", attempts: MAX_SEND_ATTEMPTS });
  });

  it("refuses a message that is not one (bad address, empty text, bad kind) before anything is written", () => {
    expect(() => queueMail(ctx, { ...message("not an address"), kind: "test-mail" })).toThrow();
    expect(() => queueMail(ctx, { ...message("a@example.com"), text: "" })).toThrow();
    expect(() => queueMail(ctx, { ...message("a@example.com"), kind: "Bad Kind" })).toThrow();
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedMail, queueMail } from "@fintech/core/mail/outbox";
import { linksIn, LocalMailSink, readMailSink } from "./mail-sink";
import { createTestContext } from "./testing";

/** The local stack's mail sink: queued mail becomes files a developer (or a test) reads. */
let ctx: Awaited<ReturnType<typeof createTestContext>>;
const dir = path.join(mkdtempSync(path.join(tmpdir(), "mail-sink-")), "mail");
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.dispose();
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe("the local mail sink", () => {
  it("delivers queued mail to files, newest first, with their links, and empties the queue", async () => {
    expect(readMailSink(dir)).toEqual([]);
    const sink = new LocalMailSink(dir).start(ctx, 60_000);
    try {
      for (const to of ["one@example.com", "two@example.com"]) {
        const text = `Confirm: https://app.example/confirm-email?token=${to.slice(0, 3)}\nThanks`;
        await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: [queueMail(ctx, { to, subject: `For ${to}`, text, kind: "test-mail" })] }));
      }
      expect(await sink.deliverNow()).toBe(2);
      expect(await queuedMail(ctx)).toEqual([]);
      const mail = readMailSink(dir);
      expect(mail.map((message) => message.to).sort()).toEqual(["one@example.com", "two@example.com"]);
      expect(mail[0]).toMatchObject({ from: ctx.config.MAIL_FROM, kind: "test-mail" });
      expect(linksIn(mail.find((message) => message.to === "one@example.com")!.text)).toEqual(["https://app.example/confirm-email?token=one"]);
      expect(await sink.deliverNow()).toBe(0);
    } finally {
      await sink.stop();
    }
  });
});

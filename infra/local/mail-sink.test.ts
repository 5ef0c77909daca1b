import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedMail, queueMail } from "@fintech/core/mail/outbox";
import { linksIn, LocalMailSink, readMailSink } from "./mail-sink";
import { createTestContext } from "@fintech/testing/context";
import { createLocalHost } from "./server";

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
        await ctx.db.doc.send(
          new TransactWriteCommand({
            TransactItems: [queueMail(ctx, { to, subject: `For ${to}`, text, kind: "test-mail" })],
          }),
        );
      }
      expect(await sink.deliverNow()).toBe(2);
      expect(await queuedMail(ctx)).toEqual([]);
      const mail = readMailSink(dir);
      expect(mail.map((message) => message.to).sort()).toEqual(["one@example.com", "two@example.com"]);
      expect(mail[0]).toMatchObject({ from: ctx.config.MAIL_FROM, kind: "test-mail" });
      expect(linksIn(mail.find((message) => message.to === "one@example.com")!.text)).toEqual([
        "https://app.example/confirm-email?token=one",
      ]);
      expect(await sink.deliverNow()).toBe(0);
    } finally {
      await sink.stop();
    }
  });

  it("shows the sink at /dev/mail with clickable links (escaped text), delivering what is queued first", async () => {
    const sink = new LocalMailSink(dir).start(ctx, 60_000);
    try {
      const text = "Reset: /reset-password?token=abc123\n<script>alert(1)</script>";
      await ctx.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [queueMail(ctx, { to: "three@example.com", subject: "Reset <now>", text, kind: "test-mail" })],
        }),
      );
      const host = createLocalHost({ fetch: () => new Response("api") }, null, { mail: sink });
      const page = await host.request("/dev/mail?to=three@example.com");
      expect(page.status).toBe(200);
      const body = await page.text();
      expect(body).toContain('<a href="/reset-password?token=abc123">/reset-password?token=abc123</a>');
      expect(body).toContain("Reset &lt;now&gt;");
      expect(body).not.toContain("<script>");
      expect(body).not.toContain("one@example.com");
      const listed = (await (await host.request("/dev/mail.json?to=THREE@example.com")).json()) as {
        data: { to: string; links: string[] }[];
      };
      expect(listed.data).toEqual([
        expect.objectContaining({ to: "three@example.com", links: ["/reset-password?token=abc123"] }),
      ]);
      // Without a sink (the cloud's API never has one), there is no such page.
      expect((await createLocalHost({ fetch: () => new Response("api") }, null).request("/dev/mail")).status).toBe(404);
    } finally {
      await sink.stop();
    }
  });
});

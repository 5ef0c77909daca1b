import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { OutgoingMail } from "@fintech/core/mail/model";
import { deliverQueuedMail } from "@fintech/core/mail/outbox";
import type { MailSender } from "@fintech/core/mail/sender";
import type { CoreContext } from "@fintech/core/shared/context";

/**
 * The embedded stack's mail: every message the platform sends lands as a file in the sink
 * directory (`.data/mail/` under `npm start`), one JSON file per message, which a developer
 * reads with `npm run mail:list` (the newest first, with their links). It stands in for SES:
 * the same outbox and delivery run (core's deliverQueuedMail), with a file instead of a provider.
 */

export const SinkMail = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  delivered_at: z.string(),
});
export type SinkMail = z.infer<typeof SinkMail>;

/** A MailSender that writes each message to `<dir>/<delivered at>-<id>.json`. */
export function fileMailSender(dir: string, clock: () => Date = () => new Date()): MailSender {
  return {
    name: "file-sink",
    async send(mail: OutgoingMail) {
      mkdirSync(dir, { recursive: true });
      const deliveredAt = clock().toISOString();
      const file = `${deliveredAt.replace(/[:.]/g, "-")}-${mail.id}.json`;
      const written: SinkMail = {
        id: mail.id,
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        kind: mail.kind,
        delivered_at: deliveredAt,
      };
      writeFileSync(path.join(dir, file), `${JSON.stringify(written, null, 2)}\n`);
      return { providerId: file };
    },
  };
}

/** The messages in a sink directory, newest first (an absent directory holds none). */
export function readMailSink(dir: string): SinkMail[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  return files
    .sort()
    .reverse()
    .flatMap((name) => {
      const parsed = SinkMail.safeParse(JSON.parse(readFileSync(path.join(dir, name), "utf8")));
      return parsed.success ? [parsed.data] : [];
    });
}

/** The links in a message's text (e.g. an email change's confirmation link). */
export const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+|\/[a-z-]+\?\S+/g) ?? [];

/** How often the sink looks for queued mail. */
export const MAIL_SWEEP_MS = 500;

/**
 * Delivers queued mail to the sink every MAIL_SWEEP_MS, one run at a time; `deliverNow()` runs
 * at once (what a test waits on instead of a timer).
 */
export class LocalMailSink {
  private ctx: CoreContext | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<number> | null = null;
  readonly sender: MailSender;

  constructor(readonly dir: string) {
    this.sender = fileMailSender(dir);
  }

  start(ctx: CoreContext, intervalMs = MAIL_SWEEP_MS): this {
    this.ctx = ctx;
    this.timer = setInterval(
      () => void this.deliverNow().catch((error: unknown) => ctx.logger.warn("mail sink: delivery failed", { error })),
      intervalMs,
    );
    this.timer.unref();
    return this;
  }

  /** Delivers what is queued now (joining a run in progress); answers how many were sent. */
  async deliverNow(): Promise<number> {
    const ctx = this.ctx;
    if (!ctx) return 0;
    this.running ??= deliverQueuedMail(ctx, this.sender)
      .then((result) => result.sent)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    this.ctx = null;
  }
}

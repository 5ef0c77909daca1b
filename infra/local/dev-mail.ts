import { Hono } from "hono";
import { html, raw } from "hono/html";
import { linksIn, readMailSink, type SinkMail } from "./mail-sink";

/**
 * /dev/mail: the local mail sink in the browser, newest first, each message's links clickable
 * (a reset or verification link opens the page it leads to). Served by infra/local's host only,
 * never by the API the cloud runs. Each request first delivers whatever is queued, so a message
 * is there as soon as the change that sent it has committed. `/dev/mail.json` is the same list
 * for scripts and tests; `?to=` keeps one recipient's messages.
 */
export interface DevMailSource {
  readonly dir: string;
  deliverNow(): Promise<number>;
}

export const DEV_MAIL_PATH = "/dev/mail";
const MAX_SHOWN = 50;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The text with its links as anchors, everything else escaped. */
function withLinks(text: string): string {
  const links = linksIn(text);
  let out = "";
  let rest = text;
  for (const link of links) {
    const at = rest.indexOf(link);
    out += `${escapeHtml(rest.slice(0, at))}<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`;
    rest = rest.slice(at + link.length);
  }
  return out + escapeHtml(rest);
}

function page(messages: SinkMail[], to: string | null) {
  const items = messages.map(
    (mail) => html`<article>
      <h2>${mail.subject}</h2>
      <p>To <strong>${mail.to}</strong> from ${mail.from}, <time datetime="${mail.delivered_at}">${mail.delivered_at}</time> <code>${mail.kind}</code></p>
      <pre>${raw(withLinks(mail.text))}</pre>
    </article>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Local mail</title>
        <style>
          body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #0f172a; background: #fff; }
          article { border: 1px solid #cbd5e1; border-radius: 0.5rem; padding: 0 1rem; margin: 1rem 0; }
          pre { white-space: pre-wrap; overflow-wrap: anywhere; }
          a { color: #3730a3; }
        </style>
      </head>
      <body>
        <main>
          <h1>Local mail${to ? html` to ${to}` : ""}</h1>
          <p>What the platform sent on this machine (the sink under the data directory), newest first. In the cloud, Amazon SES sends these.</p>
          ${items.length > 0 ? items : html`<p>No mail yet.</p>`}
        </main>
      </body>
    </html>`;
}

export function devMailRoutes(source: DevMailSource): Hono {
  const routes = new Hono();
  const messages = async (to: string | undefined) => {
    await source.deliverNow();
    const wanted = to?.trim().toLowerCase().slice(0, 254);
    return readMailSink(source.dir)
      .filter((mail) => !wanted || mail.to.toLowerCase() === wanted)
      .slice(0, MAX_SHOWN);
  };
  routes.get(`${DEV_MAIL_PATH}.json`, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({
      data: (await messages(c.req.query("to"))).map((mail) => ({ ...mail, links: linksIn(mail.text) })),
    });
  });
  routes.get(DEV_MAIL_PATH, async (c) => {
    c.header("Cache-Control", "no-store");
    const to = c.req.query("to") ?? null;
    return c.html(page(await messages(to ?? undefined), to));
  });
  return routes;
}

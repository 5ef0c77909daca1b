import path from "node:path";
import { linksIn, readMailSink } from "./mail-sink";

/**
 * `npm run mail:list`: the mail the local stack has sent (its sink, .data/mail/ or
 * $DATA_DIR/mail/), newest first. `npm run mail:list -- 3` shows the three newest; `--full`
 * prints each message's whole text instead of its links.
 */
const args = process.argv.slice(2);
const count = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 10);
const full = args.includes("--full");
const repoRoot = path.resolve(import.meta.dirname, "../..");
const dir = path.join(path.resolve(repoRoot, process.env.DATA_DIR ?? ".data"), "mail");
const messages = readMailSink(dir).slice(0, count);

if (messages.length === 0) console.log(`No mail in ${dir} yet.`);
for (const mail of messages) {
  console.log(`${mail.delivered_at}  to ${mail.to}  [${mail.kind}]`);
  console.log(`  ${mail.subject}`);
  if (full) console.log(mail.text.replace(/^/gm, "    "));
  else for (const link of linksIn(mail.text)) console.log(`  -> ${link}`);
  console.log("");
}

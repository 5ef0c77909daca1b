/**
 * A webhook dispatcher in a process of its own, for the test that kills one mid-batch
 * (packages/core/src/webhooks/dispatcher.process.test.ts): its own core context on the test's
 * table (config from the environment, as the embedded stack gets it), running
 * runWebhookDispatcher until it is killed or stdin closes. CLOCK_SKEW_MS moves its clock ahead
 * (a second dispatcher started at once after a kill sees the dead one's claims as run out).
 *
 * Protocol: prints "ready" once loaded, then one line per dispatcher round. Exits 0 when stdin
 * closes; any failure exits 1.
 */
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { runWebhookDispatcher } from "@fintech/core/webhooks/dispatcher-loop";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const skewMs = Number(process.env.CLOCK_SKEW_MS ?? 0);
  const ctx = createContext(config, { clock: () => new Date(Date.now() + skewMs) });
  const stop = new AbortController();
  process.stdin.on("end", () => stop.abort());
  process.stdin.resume();
  process.stdout.write("ready\n");
  await runWebhookDispatcher(ctx, {
    signal: stop.signal,
    pollMs: 50,
    onRound: (round) => process.stdout.write(`${JSON.stringify(round)}\n`),
  });
  ctx.db.raw.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `webhook dispatcher failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

/**
 * The reconciling process of bench:recon (recon.ts), bundled as the deployed functions are
 * (infra/bundling.ts) and run with plain Node, as the cloud's Lambda runs its bundle: its memory
 * is the reconciliation's, not the parent's emulators, seeding, or a TypeScript loader's. Takes
 * the object key as its argument and the configuration input as JSON in BENCH_CONFIG; prints one
 * JSON line (ChildRun): the outcome, seconds, peak RSS and the items read and written on its client.
 */
import { performance } from "node:perf_hooks";
import { listRails } from "@fintech/core/rails/store";
import { reconcileObject, type ReconcileOutcome } from "@fintech/core/reconciliation/service";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";

/** Items read and written on the client, per phase. */
export interface ItemCounts {
  read: number;
  written: number;
}

function countItems(ctx: CoreContext, current: () => ItemCounts): void {
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const counts = current();
      const name = String(context.commandName ?? "").replace(/Command$/, "");
      const input = args.input as Record<string, unknown>;
      const output = result.output as unknown as Record<string, unknown>;
      if (name === "Query" || name === "Scan") counts.read += Number(output.Count ?? 0);
      else if (name === "GetItem") counts.read += output.Item ? 1 : 0;
      else if (name === "BatchGetItem")
        counts.read += Object.values((output.Responses ?? {}) as Record<string, unknown[]>).reduce(
          (n, l) => n + l.length,
          0,
        );
      else if (name === "PutItem" || name === "UpdateItem" || name === "DeleteItem") counts.written += 1;
      else if (name === "TransactWriteItems") counts.written += (input.TransactItems as unknown[]).length;
      else if (name === "BatchWriteItem")
        counts.written += Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).reduce(
          (n, l) => n + l.length,
          0,
        );
      return result;
    },
    { step: "initialize", name: "reconBenchCounter" },
  );
}

export interface ChildRun {
  outcome: ReconcileOutcome;
  seconds: number;
  peakRss: number;
  rssBefore: number;
  counts: ItemCounts;
}

async function reconcileOne(key: string): Promise<void> {
  const core = createContext(loadConfig(JSON.parse(process.env.BENCH_CONFIG ?? "{}") as Record<string, string>));
  const counts: ItemCounts = { read: 0, written: 0 };
  countItems(core, () => counts);
  await listRails(core);
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const outcome = await reconcileObject(core, { key, source: "s3_event" });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  core.db.raw.destroy();
  core.storage.destroy();
  console.log(JSON.stringify({ outcome, seconds, peakRss, rssBefore, counts } satisfies ChildRun));
}

reconcileOne(process.argv[2] ?? "").catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

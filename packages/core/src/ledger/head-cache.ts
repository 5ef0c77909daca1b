import type { CoreContext } from "../shared/context";
import { latestVersion, newestVersion } from "./balances";
import { ProcessCache } from "./cache";
import type { VersionItem } from "./versions";

/** The write path's chain heads: remembered per process while they are likely still the heads, else read. */

/**
 * The heads this process wrote last, per chain, for the write path only (reads always query).
 * Serving a stale head is safe: the next version is Put only if it does not exist yet, and
 * versions are contiguous, so the write of n+1 succeeds only if n (the head we used) is still
 * the head at commit; a stale head costs one cancelled transaction and a fresh read, and a
 * refusal (insufficient funds) decided on a cached head is re-decided on fresh heads. Saves
 * the two head Queries of a transfer while this process is the chain's last writer.
 */
export const HEAD_CACHE_MS = 5_000;
const headCache = new ProcessCache<VersionItem>(HEAD_CACHE_MS, 50_000);

/**
 * What this process has seen of each chain: the newest version it knows, when, and a decaying
 * count of the versions other writers added (`foreign`) over the time it watched (`span`), so
 * foreign / span estimates how fast others write the chain. A cached head is a good guess only
 * while that rate times its age is small: in one process, or for a chain this instance just won,
 * it is; for an account that 15 other instances write every few seconds, a head remembered from
 * seconds ago is almost surely stale and would cost a cancelled write (about a whole write)
 * before the read it tried to save.
 */
interface ChainActivity {
  version: number;
  at: number;
  foreign: number;
  span: number;
}
const activity = new ProcessCache<ChainActivity>(60_000, 50_000);
const ACTIVITY_HALF_LIFE_MS = 10_000;
/**
 * Guess only while fewer than this many foreign versions are expected since the head was known.
 * Above one on purpose: a stale guess costs a cancelled write but returns the winning version,
 * a head as fresh as a read would give, with no read widening the race. The value is the one the
 * ledger benchmark's separate-instance phases favour (docs/benchmarks.md#ledger,
 * docs/decisions/0002-balance-chains-and-head-guessing.md).
 */
const MAX_EXPECTED_FOREIGN = 1.5;
/** Watched for less than this, a chain's rate is unknown: only a head this recent is guessed. */
const MIN_EVIDENCE_MS = 1_000;
const UNPROVEN_GUESS_MS = 250;

function observe(ctx: CoreContext, chain: string, version: number, foreignVersions: (known: number) => number): void {
  const now = Date.now();
  const known = activity.get(ctx, chain);
  if (!known) {
    activity.set(ctx, chain, { version, at: now, foreign: 0, span: 0 });
    return;
  }
  const elapsed = Math.max(0, now - known.at);
  const decay = 0.5 ** (elapsed / ACTIVITY_HALF_LIFE_MS);
  activity.set(ctx, chain, {
    version: Math.max(version, known.version),
    at: now,
    foreign: known.foreign * decay + Math.max(0, foreignVersions(known.version)),
    span: known.span * decay + elapsed,
  });
}

/**
 * A chain others are expected to write less often than this (versions per second) is read
 * eventually consistent: half the read units, and a stale answer costs what a stale guess costs
 * (one cancelled write that returns the winner). A busier chain is read strongly consistent.
 */
const EVENTUAL_READ_MAX_FOREIGN_RATE = 1;

/** Whether others are expected to write this chain rarely enough for an eventually consistent read. */
function quietChain(ctx: CoreContext, chain: string): boolean {
  const known = activity.get(ctx, chain);
  if (!known || known.span < MIN_EVIDENCE_MS) return true;
  return (known.foreign / known.span) * 1000 < EVENTUAL_READ_MAX_FOREIGN_RATE;
}

/**
 * The write path's read of a head: every version since the last one this process knew was another
 * writer's. Strongly consistent when `fresh` (a refusal is decided on it) or the chain is busy;
 * else eventually consistent, and then `guessed` like a remembered head. The head read is
 * remembered as a written one is, so that a retry after a write cancelled by another chain
 * needs no read of this one.
 */
async function readHead(
  ctx: CoreContext,
  chain: string,
  fresh: boolean,
): Promise<{ head: VersionItem; guessed: boolean }> {
  const eventual = !fresh && quietChain(ctx, chain) ? await newestVersion(ctx, chain, false) : undefined;
  const head = eventual ?? (await latestVersion(ctx, chain));
  observe(ctx, chain, head.version, (known) => head.version - known);
  headCache.set(ctx, chain, head);
  return { head, guessed: eventual !== undefined };
}

/**
 * The cached head of a chain, if this process wrote (or learned) it lately and no other writer
 * is likely to have moved the chain since (see ChainActivity).
 */
export function cachedHead(ctx: CoreContext, chain: string): VersionItem | undefined {
  const head = headCache.get(ctx, chain);
  if (!head) return undefined;
  const known = activity.get(ctx, chain);
  if (!known || known.version > head.version) return undefined;
  const age = Date.now() - known.at;
  if (known.span < MIN_EVIDENCE_MS) return age < UNPROVEN_GUESS_MS ? head : undefined;
  return (known.foreign / known.span) * age < MAX_EXPECTED_FOREIGN ? head : undefined;
}

/**
 * The heads a write builds on, one per chain: remembered where cachedHead trusts it (unless
 * `fresh`), else read. `guessed` says whether any was remembered or read eventually consistent,
 * so that a refusal (insufficient funds, a locked account) is decided again on heads read
 * strongly consistent just now, never on a guess.
 */
export async function headsForWrite(
  ctx: CoreContext,
  chains: string[],
  fresh: boolean,
): Promise<{ heads: VersionItem[]; guessed: boolean }> {
  const cached = chains.map((chain) => (fresh ? undefined : cachedHead(ctx, chain)));
  const read = await Promise.all(
    chains.map((chain, index) => {
      const head = cached[index];
      return head ? { head, guessed: true } : readHead(ctx, chain, fresh);
    }),
  );
  return { heads: read.map(({ head }) => head), guessed: read.some(({ guessed }) => guessed) };
}

/** After a commit: these versions are their chains' heads (each built on the version before it). */
export function rememberHeads(ctx: CoreContext, versions: VersionItem[]): void {
  for (const version of versions) {
    observe(ctx, version.chain, version.version, (known) => version.version - 1 - known);
    headCache.set(ctx, version.chain, version);
  }
}

/** After a cancelled write: another writer's committed version, now this process's head of its chain. */
export function learnHead(ctx: CoreContext, winner: VersionItem): void {
  observe(ctx, winner.chain, winner.version, (known) => winner.version - known);
  headCache.set(ctx, winner.chain, winner);
}

/** After a failed or uncertain write: read these chains afresh next time. */
export function forgetHeads(ctx: CoreContext, chains: string[]): void {
  for (const chain of chains) headCache.delete(ctx, chain);
}

/** Whole-table invariant checks of the ledger, against the oracle of a property run. */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { Account } from "@fintech/core/ledger/accounts";
import { balanceAsOf } from "@fintech/core/ledger/balances";
import { creditShardChains } from "@fintech/core/ledger/keys";
import type { VersionItem } from "@fintech/core/ledger/versions";
import { unfoldVersion } from "@fintech/core/ledger/folded-versions";
import { Journal } from "@fintech/core/ledger/journals";
import { integrityCheck, replayTotals, trialBalance } from "@fintech/core/ledger/reports";
import { balanceOf } from "@fintech/core/ledger/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { apply, availableOf, postedOf, sameTotals, totalsOf, zero, type Totals } from "./oracle";
import type { World } from "./world";

interface TableSnapshot {
  accounts: Account[];
  journals: Journal[];
  chains: Map<string, VersionItem[]>;
}

export async function snapshot(ctx: CoreContext): Promise<TableSnapshot> {
  const accounts: Account[] = [];
  const journals: Journal[] = [];
  const chains = new Map<string, VersionItem[]>();
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of reply.Items ?? []) {
      if (item.entity === "account") accounts.push(Account.parse(item));
      else if (item.entity === "journal") journals.push(Journal.parse(item));
      else if (item.entity === "balance") {
        const version = item as VersionItem;
        chains.set(version.chain, [...(chains.get(version.chain) ?? []), version]);
      }
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  for (const versions of chains.values()) versions.sort((a, b) => a.version - b.version);
  return { accounts, journals, chains };
}

const minus1ms = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

/**
 * Every invariant of the ledger over the whole table:
 * (a) per currency, debits = credits over all journals and over all chain heads (posted and
 *     pending separately); (b) no customer version anywhere has available < 0; chains are
 *     contiguous, time-ordered and each version follows from the previous by its entry;
 * (c) every version belongs to a journal operation and every operation wrote one version per
 *     leg; (d) balance as of every recorded time equals the replay of journal history;
 * (e) trial balances balanced, integrity check ok; and the oracle's totals and statuses match;
 * (f) accounts converted to credit shards: see creditShardProblems.
 */
export interface InvariantOptions {
  /** Instants (fractions of the run's time span) where converted accounts' balances are also read. */
  probes?: number[];
  /**
   * Accounts the oracle does not know as converted may have been converted automatically
   * (LEDGER_AUTO_CREDIT_SHARDS); "exact": the table's conversions are the oracle's.
   */
  conversions?: "exact" | "automatic_allowed";
}

export async function checkInvariants(
  ctx: CoreContext,
  world: World,
  sampledTimes: number,
  options: InvariantOptions = {},
): Promise<string[]> {
  const problems: string[] = [];
  const { model } = world;
  const { accounts, journals, chains } = await snapshot(ctx);
  const accountById = new Map(accounts.map((account) => [account.id, account]));
  const journalById = new Map(journals.map((journal) => [journal.id, journal]));

  // (a) over journals
  const journalSums = new Map<string, { debit: number; credit: number }>();
  for (const journal of journals) {
    let debit = 0;
    let credit = 0;
    for (const entry of journal.entries) {
      if (accountById.get(entry.account_id)?.currency !== journal.currency)
        problems.push(`journal ${journal.id}: entry in another currency`);
      if (entry.side === "debit") debit += entry.amount;
      else credit += entry.amount;
    }
    if (debit !== credit) problems.push(`journal ${journal.id} unbalanced: ${debit} vs ${credit}`);
    const sum = journalSums.get(journal.currency) ?? { debit: 0, credit: 0 };
    sum.debit += debit;
    sum.credit += credit;
    journalSums.set(journal.currency, sum);
  }
  for (const [currency, sum] of journalSums)
    if (sum.debit !== sum.credit) problems.push(`${currency}: journals debit ${sum.debit} != credit ${sum.credit}`);

  // (a) over chain heads, (b) every version, chain integrity, (c) version <-> operation accounting
  const headSums = new Map<string, Totals>();
  const versionsByOperation = new Map<string, number>();
  let nonGenesis = 0;
  let markers = 0;
  for (const [chain, versions] of chains) {
    const account = accountById.get(versions[0]!.account_id);
    if (!account) {
      problems.push(`chain ${chain} of unknown account`);
      continue;
    }
    versions.forEach((item, index) => {
      if (item.version !== index) problems.push(`chain ${chain}: version ${item.version} at position ${index}`);
      if (item.currency !== account.currency)
        problems.push(`chain ${chain} v${item.version}: currency ${item.currency}`);
      if (
        availableOf(item, account.normal_side) !== item.available ||
        postedOf(item, account.normal_side) !== item.balance
      ) {
        problems.push(`chain ${chain} v${item.version}: stored balance/available disagree with its totals`);
      }
      // A converted account's main chain may dip below zero on its own: its debits are checked
      // against the main chain plus its credit shards (the running sum, checked below).
      if (account.kind === "customer" && item.available < 0 && !(account.credit_shards > 0 && chain === account.id)) {
        problems.push(
          `customer chain ${chain} (${account.name}) v${item.version}: available ${item.available} < 0 after ${item.operation} of ${item.tx_id}`,
        );
      }
      if (index === 0) {
        if (item.operation !== "open" || !sameTotals(totalsOf(item), zero()))
          problems.push(`chain ${chain}: genesis is not an empty open`);
        return;
      }
      nonGenesis += 1;
      const previous = versions[index - 1]!;
      if (!(item.committed_at > previous.committed_at))
        problems.push(
          `chain ${chain} v${item.version}: committed_at ${item.committed_at} not after ${previous.committed_at}`,
        );
      if (item.operation !== "create" && item.operation !== "post" && item.operation !== "unpost") {
        // A lock, reconciliation or threshold change: no money moves.
        if (item.side !== null || item.tx_id !== null || !sameTotals(totalsOf(item), totalsOf(previous)))
          problems.push(`chain ${chain} v${item.version}: marker ${item.operation} changes totals`);
        markers += 1;
        return;
      }
      // A batch's folded version stands for several legs (folded-versions.ts): each is checked as a version of its own.
      const legs = unfoldVersion(item);
      nonGenesis += legs.length - 1;
      let expected = totalsOf(previous);
      for (const leg of legs) {
        if (leg.side === null || leg.tx_id === null) {
          problems.push(`chain ${chain} v${item.version}: not a journal operation`);
          return;
        }
        expected = apply(expected, leg.side, leg.amount, leg.operation as "create" | "post" | "unpost");
        const journal = journalById.get(leg.tx_id);
        if (!journal)
          problems.push(`chain ${chain} v${item.version}: journal ${leg.tx_id} does not exist (orphan version)`);
        else if (
          !journal.entries.some(
            (entry) => entry.account_id === leg.account_id && entry.side === leg.side && entry.amount === leg.amount,
          )
        ) {
          problems.push(`chain ${chain} v${item.version}: not a leg of journal ${leg.tx_id}`);
        }
        const key = `${leg.tx_id}|${leg.account_id}|${leg.operation}`;
        versionsByOperation.set(key, (versionsByOperation.get(key) ?? 0) + 1);
      }
      if (!sameTotals(totalsOf(item), expected)) {
        problems.push(
          `chain ${chain} v${item.version}: totals do not follow from v${previous.version} and its ${legs.length} change(s)`,
        );
      }
    });
    const head = versions[versions.length - 1]!;
    const sum = headSums.get(account.currency) ?? zero();
    headSums.set(account.currency, {
      posted_debits: sum.posted_debits + head.posted_debits,
      posted_credits: sum.posted_credits + head.posted_credits,
      pending_debits: sum.pending_debits + head.pending_debits,
      pending_credits: sum.pending_credits + head.pending_credits,
    });
  }
  for (const [currency, sum] of headSums) {
    if (sum.posted_debits !== sum.posted_credits)
      problems.push(`${currency}: chains posted debits ${sum.posted_debits} != credits ${sum.posted_credits}`);
    if (sum.pending_debits !== sum.pending_credits)
      problems.push(`${currency}: chains pending debits ${sum.pending_debits} != credits ${sum.pending_credits}`);
  }
  let operations = 0;
  for (const journal of journals) {
    for (const entry of journal.entries) {
      for (const op of ["create", "post", "unpost"] as const) {
        const want = journal.history.filter((record) => record.operation === op).length;
        const got = versionsByOperation.get(`${journal.id}|${entry.account_id}|${op}`) ?? 0;
        if (want !== got)
          problems.push(
            `journal ${journal.id}: ${want} ${op} in its history but ${got} ${op} versions on ${entry.account_id}`,
          );
      }
    }
    operations += journal.entries.length * journal.history.length;
    if (journal.status !== journal.history[journal.history.length - 1]!.status)
      problems.push(`journal ${journal.id}: status ${journal.status} differs from its last history record`);
  }
  if (operations !== nonGenesis - markers)
    problems.push(`${nonGenesis} versions but journals account for ${operations}`);

  // The oracle: every acknowledged effect, nothing else.
  for (const [id, want] of model.totals) {
    const chainsOfAccount = [...chains.values()].filter((versions) => versions[0]!.account_id === id);
    const got = chainsOfAccount
      .map((versions) => totalsOf(versions[versions.length - 1]!))
      .reduce(
        (sum, t) => ({
          posted_debits: sum.posted_debits + t.posted_debits,
          posted_credits: sum.posted_credits + t.posted_credits,
          pending_debits: sum.pending_debits + t.pending_debits,
          pending_credits: sum.pending_credits + t.pending_credits,
        }),
        zero(),
      );
    if (!sameTotals(got, want))
      problems.push(
        `account ${model.account(id).name}: recorded ${JSON.stringify(got)}, oracle ${JSON.stringify(want)}`,
      );
  }
  for (const [id, journal] of model.journals) {
    const stored = journalById.get(id);
    if (!stored) problems.push(`journal ${id} acknowledged but missing`);
    else if (stored.status !== journal.status)
      problems.push(`journal ${id}: status ${stored.status}, oracle ${journal.status}`);
  }
  if (journals.length !== model.journals.size)
    problems.push(`${journals.length} journals in the table, ${model.journals.size} acknowledged`);

  problems.push(...creditShardProblems(accounts, chains, world, options));

  // (d) point in time, in memory over every recorded instant and the millisecond before it
  const instants = new Set<string>();
  for (const versions of chains.values()) for (const item of versions) instants.add(item.committed_at);
  for (const journal of journals) for (const record of journal.history) instants.add(record.at);
  const times = [...instants].flatMap((at) => [at, minus1ms(at)]).sort();
  const chainsByAccount = new Map<string, VersionItem[][]>();
  for (const versions of chains.values())
    chainsByAccount.set(versions[0]!.account_id, [...(chainsByAccount.get(versions[0]!.account_id) ?? []), versions]);
  const asOfInMemory = (accountId: string, at: string): Totals | null => {
    let found = false;
    const sum = zero();
    for (const versions of chainsByAccount.get(accountId) ?? []) {
      let last: VersionItem | undefined;
      for (const item of versions) if (item.committed_at <= at) last = item;
      if (!last) continue;
      found = true;
      sum.posted_debits += last.posted_debits;
      sum.posted_credits += last.posted_credits;
      sum.pending_debits += last.pending_debits;
      sum.pending_credits += last.pending_credits;
    }
    return found ? sum : null;
  };
  const pitProblems: string[] = [];
  for (const at of times) {
    const replayed = replayTotals(journals, at);
    for (const account of accounts) {
      const recorded = asOfInMemory(account.id, at);
      const want = replayed.get(account.id) ?? zero();
      if (recorded === null) {
        if (!sameTotals(want, zero()))
          pitProblems.push(`as of ${at}: ${account.name} did not exist yet but journals moved it`);
        continue;
      }
      if (!sameTotals(recorded, want))
        pitProblems.push(
          `as of ${at}: ${account.name} versions say ${JSON.stringify(recorded)}, journal replay says ${JSON.stringify(want)}`,
        );
    }
  }
  problems.push(...pitProblems.slice(0, 5));

  // (d) the same through the read paths, at a few sampled instants, and for converted accounts
  // also just before and at each conversion's instant and at the run's random probes (one query
  // per chain each: the samples' owner-level reads are not repeated there); (e) trial balances then
  const sample = times
    .filter((_, index) => index % Math.max(1, Math.floor(times.length / sampledTimes)) === 0)
    .slice(0, sampledTimes);
  const converted = accounts.filter((account) => account.credit_shards > 0);
  const probed = new Map<string, Account[]>(sample.map((at) => [at, accounts]));
  const probe = (at: string, account: Account) => {
    if (!probed.has(at)) probed.set(at, []);
    const list = probed.get(at)!;
    if (list !== accounts && !list.includes(account)) list.push(account);
  };
  if (times.length > 0) {
    const first = Date.parse(times[0]!);
    const span = Date.parse(times[times.length - 1]!) + 1 - first;
    for (const account of converted) {
      const marker = chains.get(account.id)?.find((item) => item.credit_shards);
      if (marker)
        for (const offset of [-1, 0]) probe(new Date(Date.parse(marker.committed_at) + offset).toISOString(), account);
      for (const fraction of options.probes ?? [])
        probe(new Date(first + Math.floor(fraction * span)).toISOString(), account);
    }
  }
  for (const [at, probedAccounts] of [...probed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const replayed = replayTotals(journals, at);
    for (const account of probedAccounts) {
      const used = account.kind === "customer" || replayed.has(account.id);
      if (!used) continue;
      const recorded = await balanceAsOf(ctx, account, at);
      const want = replayed.get(account.id) ?? zero();
      if (recorded && !sameTotals(totalsOf(recorded), want))
        problems.push(
          `balanceAsOf(${account.name}, ${at}) = ${JSON.stringify(totalsOf(recorded))}, replay ${JSON.stringify(want)}`,
        );
      if (account.kind === "customer" && recorded && probedAccounts === accounts) {
        const reply = await balanceOf(ctx, account.owner_id, account.id, at);
        if (
          reply.balance_minor !== postedOf(want, account.normal_side) ||
          reply.available_minor !== availableOf(want, account.normal_side)
        ) {
          problems.push(
            `balanceOf(${account.name}, ${at}) = ${reply.balance_minor}/${reply.available_minor}, replay ${postedOf(want, account.normal_side)}/${availableOf(want, account.normal_side)}`,
          );
        }
      }
    }
    if (probedAccounts !== accounts) continue;
    for (const owner of world.owners) {
      const trial = await trialBalance(ctx, owner, at);
      if (!trial.is_balanced)
        problems.push(
          `trial balance of ${owner} as of ${at} is not balanced: ${JSON.stringify(trial.accounts.filter((line) => !line.is_balanced))} ${JSON.stringify(trial.totals)}`,
        );
    }
  }

  // (e) now
  for (const owner of world.owners) {
    const trial = await trialBalance(ctx, owner);
    if (!trial.is_balanced) problems.push(`trial balance of ${owner} is not balanced: ${JSON.stringify(trial.totals)}`);
    const integrity = await integrityCheck(ctx, { ownerId: owner });
    if (!integrity.ok) problems.push(`integrity of ${owner}: ${JSON.stringify(integrity.drift)}`);
  }
  const integrity = await integrityCheck(ctx, "ledger");
  if (!integrity.ok || integrity.drift.length > 0)
    problems.push(
      `ledger integrity: ${JSON.stringify(integrity.drift)} ${JSON.stringify(integrity.unbalanced_journals)}`,
    );
  if (integrity.journals_checked !== journals.length)
    problems.push(`integrity checked ${integrity.journals_checked} journals of ${journals.length}`);
  return problems;
}

const sumAvailable = (items: { available: number }[]) => items.reduce((sum, item) => sum + item.available, 0);

/** The newest version of a chain committed at or before an instant (none: before the chain began). */
const versionAt = (versions: VersionItem[], at: string): VersionItem | undefined => {
  let found: VersionItem | undefined;
  for (const item of versions) if (item.committed_at <= at) found = item;
  return found;
};

/**
 * (f) Accounts converted to credit shards (credit-shards.ts): the oracle's conversions are the
 * table's (unless automatic ones are allowed); the account's chains are its main chain and exactly
 * its shards; the main chain's versions carry the shard count from one marker on (none before),
 * and each shard's genesis is at that marker's instant; a shard holds only money arriving on the
 * account's normal side (create or post); and the account never goes below zero available: at
 * every version of every one of its chains (every folded leg too), that version's available plus
 * the other chains' available as of its commit instant is not negative.
 */
function creditShardProblems(
  accounts: Account[],
  chains: Map<string, VersionItem[]>,
  world: World,
  options: InvariantOptions,
): string[] {
  const problems: string[] = [];
  const { model } = world;
  for (const [id, at] of model.creditShards) {
    const account = accounts.find((candidate) => candidate.id === id);
    if (!account || account.credit_shards === 0)
      problems.push(`${model.account(id).name}: converted at ${at}, not in the table`);
  }
  for (const account of accounts) {
    if (account.kind !== "customer") continue;
    const main = chains.get(account.id) ?? [];
    const own = [...chains.entries()].filter(([, versions]) => versions[0]!.account_id === account.id);
    const carrying = main.filter((item) => item.credit_shards);
    if (account.credit_shards === 0) {
      if (own.length !== 1 || carrying.length > 0)
        problems.push(
          `${account.name}: no credit shards, but ${own.length} chains and ${carrying.length} versions with a count`,
        );
      continue;
    }
    const name = `${account.name} (${account.credit_shards} credit shards)`;
    if (options.conversions === "exact" && !model.creditShards.has(account.id))
      problems.push(`${name}: converted, but not by the run`);
    const shardIds = creditShardChains(account.id, account.credit_shards);
    const chainIds = own.map(([chain]) => chain).sort();
    if (JSON.stringify(chainIds) !== JSON.stringify([account.id, ...shardIds].sort()))
      problems.push(`${name}: chains ${chainIds.join(", ")}`);
    const marker = carrying[0];
    if (!marker) {
      problems.push(`${name}: no main-chain version carries the shard count`);
      continue;
    }
    if (marker.operation !== "settings") problems.push(`${name}: the count first appears on a ${marker.operation}`);
    const known = model.creditShards.get(account.id);
    if (known && known !== marker.committed_at)
      problems.push(`${name}: converted at ${known}, marker at ${marker.committed_at}`);
    const fromMarker = main.slice(main.indexOf(marker));
    if (fromMarker.some((item) => item.credit_shards !== account.credit_shards))
      problems.push(`${name}: a main-chain version after the marker lost or changed the count`);
    for (const shard of shardIds) {
      const versions = chains.get(shard) ?? [];
      if (versions[0] && versions[0].committed_at !== marker.committed_at)
        problems.push(`${name}: ${shard} begins at ${versions[0].committed_at}, the marker at ${marker.committed_at}`);
      for (const item of versions.slice(1))
        for (const leg of unfoldVersion(item))
          if (leg.side !== account.normal_side || (leg.operation !== "create" && leg.operation !== "post"))
            problems.push(`${name}: ${shard} v${item.version} holds a ${leg.operation} ${leg.side} of ${leg.tx_id}`);
    }
    for (const [chain, versions] of own) {
      const others = own.filter(([other]) => other !== chain).map(([, other]) => other);
      for (const item of versions) {
        const elsewhere = sumAvailable(
          others.map((other) => versionAt(other, item.committed_at)).filter((found) => found !== undefined),
        );
        for (const leg of unfoldVersion(item)) {
          if (leg.available + elsewhere < 0)
            problems.push(
              `${name}: available ${leg.available + elsewhere} < 0 as of ${item.committed_at} (${chain} v${item.version}: ${leg.operation} ${leg.side} ${leg.amount} of ${leg.tx_id}, ${leg.available} on the chain)`,
            );
        }
      }
    }
  }
  return problems;
}

/** Runs the property tests' steps against the engine and the oracle side by side. */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { toDecimalString } from "@fintech/core/money/model";
import type { CoreContext } from "@fintech/core/shared/context";
import { CREDIT_SHARDS } from "@fintech/core/ledger/credit-shards";
import {
  convertToCreditShards,
  describeOutcome,
  execute,
  isStatus,
  type ConversionOutcome,
  type Outcome,
  type Request,
  type SimpleCommand,
  type Step,
} from "./commands";
import type { Expected, Model } from "./oracle";

export async function countItems(ctx: CoreContext): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new ScanCommand({ TableName: ctx.db.table, Select: "COUNT", ConsistentRead: true, ExclusiveStartKey: start }),
    );
    count += reply.Count ?? 0;
    start = reply.LastEvaluatedKey;
  } while (start);
  return count;
}

const sameOutcome = (a: Outcome, b: Outcome) =>
  a.ok && b.ok
    ? a.body === b.body
    : !a.ok && !b.ok
      ? a.status === b.status && a.code === b.code && a.message === b.message
      : false;

function matches(expected: Expected, outcome: Outcome): boolean {
  if (!expected.ok) return !outcome.ok && outcome.status === expected.status && outcome.code === expected.code;
  if (!outcome.ok) return false;
  if ("replay" in expected) return outcome.replayed && outcome.body === expected.replay;
  return !outcome.replayed;
}

const show = (request: Request) => JSON.stringify(request);

/**
 * Unrelated fresh requests at once, spread over the instances: each outcome must be one the
 * oracle allows (state-dependent refusals may differ from the oracle's view before they ran),
 * and the acknowledged effects are fed to the oracle in an order the engine could have run them.
 */
async function runConcurrently(instances: CoreContext[], model: Model, commands: SimpleCommand[]): Promise<string[]> {
  const problems: string[] = [];
  const ctx = instances[0]!;
  const on = (index: number) => instances[index % instances.length]!;
  const requests = commands
    .map((command) => model.request(command))
    .filter((request): request is Request => request !== null);
  for (const request of requests) problems.push(...(await model.prepareQuote(ctx, request)));
  const expectations = requests.map((request) => model.expect(request));
  const statusBefore = new Map([...model.journals].map(([id, journal]) => [id, journal.status]));
  const outcomes = await Promise.all(requests.map((request, index) => execute(on(index), request)));
  const counts = new Map<string, { post: number; unpost: number }>();
  requests.forEach((request, index) => {
    const outcome = outcomes[index]!;
    const expected = expectations[index]!;
    // State-dependent refusals may legitimately differ from the pre-batch oracle; validation may not.
    const stateful = new Set(["insufficient_funds", "already_posted", "not_posted"]);
    const allowed =
      matches(expected, outcome) ||
      (outcome.ok && !outcome.replayed && (expected.ok || stateful.has(expected.code))) ||
      (!outcome.ok && stateful.has(outcome.code) && (expected.ok || stateful.has(expected.code)));
    if (!allowed)
      problems.push(
        `batch ${show(request)}: got ${describeOutcome(outcome)}, oracle (before the batch) wants ${JSON.stringify(expected)}`,
      );
    if (outcome.ok && !outcome.replayed) {
      problems.push(...(isStatus(request) ? [] : model.checkReply(request, outcome)));
      if (isStatus(request)) {
        const count = counts.get(request.journalId) ?? { post: 0, unpost: 0 };
        count[request.fn] += 1;
        counts.set(request.journalId, count);
      }
    }
  });
  // Apply creates first, then status changes in an order the engine could have run them.
  requests.forEach((request, index) => {
    if (request.fn !== "post" && request.fn !== "unpost") model.record(request, outcomes[index]!);
  });
  for (const [journalId, count] of counts) {
    const initial = statusBefore.get(journalId)!;
    const net = count.post - count.unpost;
    if (initial === "draft" ? net !== 0 && net !== 1 : net !== 0 && net !== -1) {
      problems.push(
        `batch: journal ${journalId} (${initial}) had ${count.post} posts and ${count.unpost} unposts succeed`,
      );
    }
    const order: ("post" | "unpost")[] = [];
    let status = initial;
    for (let remaining = count.post + count.unpost; remaining > 0; remaining--) {
      order.push(status === "draft" ? "post" : "unpost");
      status = status === "draft" ? "posted" : "draft";
    }
    const pool = requests
      .map((request, index) => ({ request, outcome: outcomes[index]! }))
      .filter(
        ({ request, outcome }) =>
          "journalId" in request && request.journalId === journalId && outcome.ok && !outcome.replayed,
      );
    for (const op of order) {
      const at = pool.findIndex(({ request }) => request.fn === op);
      if (at < 0) break;
      const [{ request, outcome }] = pool.splice(at, 1) as [{ request: Request; outcome: Outcome }];
      problems.push(...(outcome.ok ? model.checkReply(request, outcome) : []));
      model.record(request, outcome);
    }
  }
  requests.forEach((request, index) => {
    const outcome = outcomes[index]!;
    if (isStatus(request) && (!outcome.ok || outcome.replayed) && request.key) model.record(request, outcome);
  });
  return problems;
}

/**
 * Copies of one conversion: none may fail, all name the same shard count, and exactly one
 * converts an account that had no shards (none converts one that had). The conversion writes the
 * main chain's marker and one genesis version per shard.
 */
function recordConversion(model: Model, accountId: string, outcomes: ConversionOutcome[]): string[] {
  const problems: string[] = [];
  const name = model.account(accountId).name;
  const had = model.creditShards.has(accountId);
  const converted = outcomes.filter((outcome) => outcome.ok && outcome.result.converted);
  for (const outcome of outcomes) {
    if (!outcome.ok) problems.push(`conversion of ${name} refused: ${outcome.code}`);
    else if (outcome.result.credit_shards !== CREDIT_SHARDS || outcome.result.account_id !== accountId)
      problems.push(`conversion of ${name} answered ${JSON.stringify(outcome.result)}`);
    else if (outcome.result.converted !== (outcome.result.at !== null))
      problems.push(`conversion of ${name}: converted ${outcome.result.converted} with instant ${outcome.result.at}`);
  }
  if (converted.length !== (had ? 0 : 1))
    problems.push(`${outcomes.length} conversions of ${name} (shards before: ${had}): ${converted.length} converted`);
  const first = converted[0];
  if (first?.ok && first.result.at) {
    model.creditShards.set(accountId, first.result.at);
    model.expectedWrites += 1 + CREDIT_SHARDS;
  }
  return problems;
}

/**
 * Runs one step against the engine and the oracle; returns every violation seen. Sequential
 * steps must match the oracle exactly (and change the item count by exactly what they wrote);
 * concurrent steps must give outcomes the oracle allows, with their own exact properties.
 *
 * `instances` are contexts on the same table with their own clients and per-process state
 * (account and head caches, chain queues), like separate Lambda instances: the requests of a
 * concurrent step are spread over them, so writers really race through DynamoDB's conditions
 * and not only through one process's queues; one-by-one requests rotate over them, so a
 * cached head is often stale.
 */
export async function runStep(instances: CoreContext[], model: Model, step: Step): Promise<string[]> {
  const problems: string[] = [];
  const ctx = instances[0]!;
  const on = (index: number) => instances[index % instances.length]!;
  const before = await countItems(ctx);
  const writesBefore = model.expectedWrites;

  if (step.kind === "one" || step.kind === "replay") {
    let request: Request | null;
    if (step.kind === "one") request = model.request(step.command);
    else {
      if (model.keyedRequests.length === 0) return problems;
      request = model.variant(model.keyedRequests[step.request % model.keyedRequests.length]!, step.variant);
    }
    if (!request) return problems;
    problems.push(...(await model.prepareQuote(ctx, request)));
    const expected = model.expect(request);
    const outcome = await execute(on(model.nextInstance()), request);
    if (!matches(expected, outcome)) {
      problems.push(
        `${step.kind === "replay" ? `replay(${step.variant}) ` : ""}${show(request)}: got ${describeOutcome(outcome)}, oracle wants ${JSON.stringify(expected)}`,
      );
    }
    if (outcome.ok && !outcome.replayed) problems.push(...model.checkReply(request, outcome));
    model.record(request, outcome);
  } else if (step.kind === "duplicate") {
    const request = model.request(step.command, true);
    if (!request) return problems;
    problems.push(...(await model.prepareQuote(ctx, request)));
    const expected = model.expect(request);
    const outcomes = await Promise.all(Array.from({ length: step.copies }, (_, index) => execute(on(index), request)));
    const answered = outcomes.filter((outcome) => outcome.ok || outcome.code !== "idempotency_in_progress");
    const fresh = outcomes.filter((outcome) => outcome.ok && !outcome.replayed);
    const label = `${step.copies}x ${show(request)}`;
    // If every copy saw another in flight (all 409) and none committed, the item count check
    // below proves nothing was written.
    if (answered.some((outcome) => !sameOutcome(outcome, answered[0]!)))
      problems.push(`duplicate ${label}: replies differ: ${outcomes.map(describeOutcome).join(" | ")}`);
    if (fresh.length > 1) problems.push(`duplicate ${label}: ${fresh.length} copies executed`);
    if (answered.some((outcome) => outcome.ok) && fresh.length !== 1)
      problems.push(
        `duplicate ${label}: success without exactly one execution: ${outcomes.map(describeOutcome).join(" | ")}`,
      );
    const first = fresh[0] ?? answered[0];
    if (first && !matches(expected, first))
      problems.push(`duplicate ${label}: got ${describeOutcome(first)}, oracle wants ${JSON.stringify(expected)}`);
    if (fresh[0] && fresh[0].ok) problems.push(...model.checkReply(request, fresh[0]));
    model.record(request, fresh[0] ?? answered[0] ?? outcomes[0]!);
  } else if (step.kind === "batch") {
    problems.push(...(await runConcurrently(instances, model, step.commands)));
  } else if (step.kind === "convert") {
    const account = model.accounts[step.account % model.accounts.length]!;
    const [outcomes, found] = await Promise.all([
      Promise.all(Array.from({ length: step.copies }, (_, index) => convertToCreditShards(on(index + 1), account.id))),
      runConcurrently(instances, model, step.during),
    ]);
    problems.push(...found, ...recordConversion(model, account.id, outcomes));
  } else {
    const from = model.accounts[step.from % model.accounts.length]!;
    const targets = model.accounts.filter(
      (account) =>
        account.id !== from.id &&
        account.owner === from.owner &&
        account.currency === from.currency &&
        account.normal === "debit",
    );
    if (from.normal !== "debit" || targets.length === 0) return problems;
    const available = model.available(from.id);
    const amount = Math.max(1, Math.floor(available * step.fraction));
    const requests: Request[] = Array.from({ length: step.copies }, (_, index) => ({
      fn: "transfer",
      owner: from.owner,
      body: {
        from_account_id: from.id,
        to_account_id: targets[index % targets.length]!.id,
        amount: toDecimalString(amount, from.currency),
      },
      key: model.freshKey(),
    }));
    const outcomes = await Promise.all(requests.map((request, index) => execute(on(index), request)));
    const successes = outcomes.filter((outcome) => outcome.ok).length;
    const want = Math.min(step.copies, Math.floor(available / amount));
    if (successes !== want) {
      problems.push(
        `drain: ${step.copies} transfers of ${amount} from ${from.name} (available ${available}): ${successes} succeeded, want ${want}: ${outcomes.map(describeOutcome).join(" | ")}`,
      );
    }
    for (const outcome of outcomes)
      if (!outcome.ok && outcome.code !== "insufficient_funds")
        problems.push(`drain: unexpected ${describeOutcome(outcome)}`);
    for (const [index, request] of requests.entries()) model.record(request, outcomes[index]!);
  }

  const after = await countItems(ctx);
  if (after - before !== model.expectedWrites - writesBefore) {
    problems.push(
      `step ${JSON.stringify(step)} wrote ${after - before} items, the acknowledged writes account for ${model.expectedWrites - writesBefore}`,
    );
  }
  return problems;
}

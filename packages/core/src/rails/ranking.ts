import { toDecimalString, type Currency } from "../money/model";
import type { RoutingCandidate, RoutingDecision } from "../payments/model";
import { unprocessable } from "../shared/errors";
import { ineligibility } from "./eligibility";
import { railCostMinor } from "./cost";
import type { Rail } from "./model";

/**
 * Smart routing as a PURE function (docs/payments-and-rails.md#routing, after Hyperswitch's
 * success-rate, elimination and multi-objective routing): rails, their windowed attempt counts and
 * the payment in, a RoutingDecision out. No store reads here (routing.ts reads the rails and the
 * window and calls this), so every rule is unit-tested with hand-computed numbers.
 *
 * Only ELIGIBLE rails are ranked: a rail that does not carry the payment's currency, does not reach
 * its destination country, or whose amount limits it is outside (eligibility.ts ineligibility) is
 * excluded with the reason, listed in the decision's `excluded`. A rail's fee never excludes it:
 * the payer is charged at most the fee they were quoted (payments/worker.ts chargedFee), so an
 * exploration pick or a retry on a pricier rail costs the platform, not the payer. A forced rail
 * that cannot carry it is a 422 `rail_ineligible` with the reason; no eligible rail at all is a
 * 422 `no_eligible_rail` listing every reason.
 *
 * For every ACTIVE, eligible rail not already tried for this payment:
 *
 *   cost      = railCostMinor(rail, amount, currency)            THE cost formula (cost.ts)
 *   p         = (succeeded + W·p0) / (attempts + W)              success estimate, Beta prior
 *   t         = (sum of attempt seconds + W·t0) / (attempts + W) average time, same prior weight
 *   score     = p·(amount − cost) − TIME_PENALTY·t·amount        expected value, minor units
 *
 * with p0 and t0 the rail's configured success rate and average time, and W = PRIOR_WEIGHT: the
 * prior counts as W attempts, so a rail with one failed attempt is not judged on that one sample
 * (0.985 configured, one failure: (0 + 19.7) / 21 = 0.938) and a rail with hundreds of attempts is
 * judged on them. The configured rate, not the error injection, is the prior: injected failures
 * are what the router must discover from real attempts. The time penalty is 1 bp of the amount
 * per second of average time (SWIFT's 2 s costs 0.02 % of the amount, Card's 0.1 s 0.001 %): it
 * separates rails of equal value, it never outweighs a real success gap.
 *
 * Order of precedence: forceRail (must be active and not already tried, else 422) > preferredRail
 * (if active, not eliminated, not already tried) > exploration/probe share > highest score.
 *
 * Elimination: a rail with at least ELIMINATION_MIN_ATTEMPTS finished attempts in the window and
 * a success estimate below ELIMINATION_THRESHOLD is out of rotation. It recovers two ways: the
 * window slides (its failures age out: below the minimum it is judged on the prior again), and
 * PROBE_SHARE of payments, picked by hash, test one eliminated rail each (a probe that succeeds
 * raises the estimate; the payment's retry covers a probe that fails).
 *
 * Exploration: EXPLORATION_SHARE of first attempts, picked by a hash of the payment id (so a re-run
 * decides the same), go to a random eligible rail other than the best, so the estimates of the
 * other rails stay fresh; only to a rail whose expected value is within EXPLORATION_MAX_GAP (a
 * share of the amount) of the best, which bounds what exploring costs the platform (the payer is
 * charged at most the best rail's fee, the quoted one). With no such rail the payment takes the
 * best. Retries (excludeRailIds not empty) never explore: they take the next best.
 *
 * Savings: the decision's saving is the default rail's cost (the first eligible rail in console
 * order, what a fixed priority order would use) minus the chosen rail's, and never below 0: a
 * pricier choice buys success or speed, and is not booked as a negative saving.
 *
 * If every available rail is eliminated, the static fallback order applies (the first available
 * rail in console order), as Hyperswitch falls back when its strategy has no usable output.
 */

export const ROUTING_WINDOW_MINUTES = 15;
export const PRIOR_WEIGHT = 20;
export const ELIMINATION_THRESHOLD = 0.5;
export const ELIMINATION_MIN_ATTEMPTS = 10;
export const EXPLORATION_SHARE = 0.1;
export const PROBE_SHARE = 0.02;
/**
 * The most an exploring payment's expected value may fall short of the best rail's, as a share of
 * the amount (1 %: 0.43 on 42.50, 10.00 on 1,000.00). A rail further behind is never explored.
 */
export const EXPLORATION_MAX_GAP = 0.01;
/** Score penalty per second of average processing time, as a fraction of the amount (1 bp). */
export const TIME_PENALTY_PER_SECOND = 0.0001;

/** Finished attempts of one rail in the window. */
export interface RailWindowStats {
  attempts: number;
  succeeded: number;
  /** Sum of the attempts' durations (finishedAt − startedAt), milliseconds. */
  durationMs: number;
}

export const EMPTY_WINDOW: RailWindowStats = { attempts: 0, succeeded: 0, durationMs: 0 };

/** What the ranking needs of a rail (a stored Rail has it all). */
export type RankedRail = Pick<
  Rail,
  | "id"
  | "name"
  | "status"
  | "fixedFeeMinor"
  | "fxSpread"
  | "successRate"
  | "avgProcessingTime"
  | "slaTarget"
  | "currencies"
  | "countries"
  | "feeCurrency"
  | "minAmountMinor"
  | "maxAmountMinor"
>;

export interface RouteRequest {
  paymentId: string;
  amountMinor: number;
  currency: Currency;
  /** Where the payment goes (regions.ts destinationCountry). */
  country: string;
  /** False for a quote: it shows the best rail, never an exploration pick. */
  explore?: boolean | undefined;
  preferredRail?: string | undefined;
  forceRail?: string | undefined;
  excludeRailIds?: readonly string[] | undefined;
}

export interface RankInput extends RouteRequest {
  /** Every rail, in console order (the static fallback order). */
  rails: readonly RankedRail[];
  /** Windowed stats by rail id; a rail without any is judged on its prior. */
  window: ReadonlyMap<string, RailWindowStats>;
  now: Date;
}

/* ---------- deterministic hashing ---------- */

/** FNV-1a over the UTF-16 code units, then murmur3's finaliser so nearby ids spread evenly. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) fixed by (purpose, id). */
export const unitHash = (purpose: string, id: string): number => hash32(`${purpose}:${id}`) / 2 ** 32;

/** Which share a payment falls in: exploration, probe, or neither (decided only by its id). */
export function explorationBand(paymentId: string): "explore" | "probe" | null {
  const u = unitHash("explore", paymentId);
  if (u < EXPLORATION_SHARE) return "explore";
  if (u < EXPLORATION_SHARE + PROBE_SHARE) return "probe";
  return null;
}

/* ---------- estimates ---------- */

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The Beta-prior success estimate (0..1). */
export function successEstimate(rail: Pick<RankedRail, "successRate">, stats: RailWindowStats): number {
  return (stats.succeeded + PRIOR_WEIGHT * (rail.successRate / 100)) / (stats.attempts + PRIOR_WEIGHT);
}

/** The average time estimate (seconds), with the configured time as prior of the same weight. */
export function timeEstimate(rail: Pick<RankedRail, "avgProcessingTime">, stats: RailWindowStats): number {
  return (stats.durationMs / 1000 + PRIOR_WEIGHT * rail.avgProcessingTime) / (stats.attempts + PRIOR_WEIGHT);
}

/** The expected value of sending the amount over a rail, minor units. */
export function expectedValue(amountMinor: number, costMinor: number, success: number, seconds: number): number {
  return success * (amountMinor - costMinor) - TIME_PENALTY_PER_SECOND * seconds * amountMinor;
}

export const isEliminated = (stats: RailWindowStats, success: number): boolean =>
  stats.attempts >= ELIMINATION_MIN_ATTEMPTS && success < ELIMINATION_THRESHOLD;

/* ---------- the decision ---------- */

interface Scored {
  rail: RankedRail;
  index: number;
  costMinor: number;
  success: number;
  seconds: number;
  score: number;
  stats: RailWindowStats;
  active: boolean;
  excluded: boolean;
  eliminated: boolean;
  /** Why it cannot carry the payment; null when it can. */
  ineligible: string | null;
}

const percent = (fraction: number) => `${round(fraction * 100, 1)} %`;
const SHOWN_NAME_LENGTH = 40;
/** A client-supplied rail name as it appears in a message: trimmed, bounded, quoted. */
const shownName = (name: string) => `"${name.trim().slice(0, SHOWN_NAME_LENGTH)}"`;
const byName = (rails: readonly Scored[], name: string | undefined) => {
  const wanted = name?.trim().toLowerCase();
  return wanted ? rails.find((entry) => entry.rail.name.toLowerCase() === wanted) : undefined;
};

/** Higher score first; ties: cheaper, then faster, then console order. */
function compareScored(a: Scored, b: Scored): number {
  return b.score - a.score || a.costMinor - b.costMinor || a.seconds - b.seconds || a.index - b.index;
}

function unavailableBecause(entry: Scored): string | null {
  if (!entry.active) return `its status is ${entry.rail.status}`;
  if (entry.excluded) return "it was already tried for this payment";
  return null;
}

function eliminationNote(entry: Scored): string {
  return `Out of rotation: success estimate ${percent(entry.success)} over ${entry.stats.attempts} attempts in the last ${ROUTING_WINDOW_MINUTES} min is below ${percent(ELIMINATION_THRESHOLD)}`;
}

/**
 * Decides the rail of one payment attempt. Throws 422 `rail_not_available` when forceRail names no
 * available rail and 422 `no_rail_available` when no rail is active (or all were tried).
 */
export function rankRails(input: RankInput): RoutingDecision {
  const excluded = new Set(input.excludeRailIds ?? []);
  const scored: Scored[] = input.rails.map((rail, index) => {
    const stats = input.window.get(rail.id) ?? EMPTY_WINDOW;
    const costMinor = railCostMinor(rail, input.amountMinor, input.currency).totalMinor;
    const cannotCarry = ineligibility(rail, {
      amountMinor: input.amountMinor,
      currency: input.currency,
      country: input.country,
    });
    const success = successEstimate(rail, stats);
    const seconds = timeEstimate(rail, stats);
    const active = rail.status === "active";
    return {
      rail,
      index,
      costMinor,
      success,
      seconds,
      score: expectedValue(input.amountMinor, costMinor, success, seconds),
      stats,
      active,
      excluded: excluded.has(rail.id),
      eliminated: active && isEliminated(stats, success),
      ineligible: cannotCarry,
    };
  });
  const routable = scored.filter((entry) => entry.active && !entry.excluded);
  const available = routable.filter((entry) => entry.ineligible === null);
  const eligible = available.filter((entry) => !entry.eliminated).sort(compareScored);
  const retry = excluded.size > 0;

  let chosen: Scored;
  let strategy: RoutingDecision["strategy"];
  let reason: string;
  const best = eligible[0];

  if (input.forceRail !== undefined && input.forceRail.trim() !== "") {
    const forced = byName(scored, input.forceRail);
    const why = forced ? unavailableBecause(forced) : "no rail has that name";
    if (!forced || why)
      throw unprocessable(`Rail ${shownName(input.forceRail)} is not available: ${why}`, "rail_not_available");
    if (forced.ineligible)
      throw unprocessable(
        `Rail ${forced.rail.name} cannot carry this payment: ${forced.ineligible}`,
        "rail_ineligible",
      );
    chosen = forced;
    strategy = "forced";
    reason = `The request forces ${forced.rail.name} (forceRail), so it is used whatever its score.`;
  } else {
    if (routable.length === 0)
      throw unprocessable(
        retry
          ? "No payment rail is left to try: every active rail was already tried for this payment"
          : "No payment rail is available: every rail is stopped or in maintenance",
        "no_rail_available",
      );
    if (available.length === 0)
      throw unprocessable(
        `No payment rail can carry this payment: ${routable.map((entry) => entry.ineligible).join("; ")}`,
        "no_eligible_rail",
      );
    const preferred = byName(scored, input.preferredRail);
    const preferredWhy = input.preferredRail?.trim()
      ? !preferred
        ? "no rail has that name"
        : (unavailableBecause(preferred) ??
          preferred.ineligible ??
          (preferred.eliminated ? "it is out of rotation (success estimate below the threshold)" : null))
      : null;
    const preferredNote = preferredWhy
      ? ` The preferred rail ${shownName(input.preferredRail ?? "")} was not used: ${preferredWhy}.`
      : "";
    const band = retry || input.explore === false ? null : explorationBand(input.paymentId);
    const pick = unitHash("pick", input.paymentId);
    const probes = available.filter((entry) => entry.eliminated);
    // Exploration stays within EXPLORATION_MAX_GAP of the best expected value.
    const explorable = best
      ? eligible.slice(1).filter((entry) => best.score - entry.score <= EXPLORATION_MAX_GAP * input.amountMinor)
      : [];

    if (preferred && !preferredWhy) {
      chosen = preferred;
      strategy = "preferred";
      reason = `${preferred.rail.name} is the preferred rail of the request and is available (success estimate ${percent(preferred.success)}).`;
    } else if (!best) {
      chosen = available[0]!;
      strategy = "expected_value";
      reason = `Every available rail is out of rotation (success estimates below ${percent(ELIMINATION_THRESHOLD)}), so the static fallback order picks ${chosen.rail.name}.${preferredNote}`;
    } else if (band === "explore" && explorable.length > 0) {
      chosen = explorable[Math.floor(pick * explorable.length)]!;
      strategy = "exploration";
      reason = `This payment is in the ${percent(EXPLORATION_SHARE)} exploration share (decided from its id), so it goes to ${chosen.rail.name} instead of the best rail ${best.rail.name}, keeping ${chosen.rail.name}'s success estimate fresh.${preferredNote}`;
    } else if (band === "probe" && probes.length > 0) {
      chosen = probes[Math.floor(pick * probes.length)]!;
      strategy = "exploration";
      reason = `This payment is in the ${percent(PROBE_SHARE)} probe share (decided from its id), so it tests ${chosen.rail.name}, which is out of rotation, to see whether it has recovered.${preferredNote}`;
    } else {
      chosen = best;
      strategy = "expected_value";
      reason = `${best.rail.name} has the highest expected value: ${percent(best.success)} success estimate × (amount − cost ${toDecimalString(best.costMinor, input.currency)} ${input.currency}).${preferredNote}`;
    }
  }
  if (retry) reason = `Retry after ${[...excluded].length === 1 ? "a failed attempt" : "failed attempts"}: ${reason}`;

  // The static default: what a fixed priority order would have sent this attempt to.
  const fallback = available[0] ?? chosen;
  const savingMinor = Math.max(0, fallback.costMinor - chosen.costMinor);
  const candidates: RoutingCandidate[] = scored.map((entry) => ({
    railId: entry.rail.id,
    rail: entry.rail.name,
    status: entry.rail.status,
    costMinor: entry.costMinor,
    cost: toDecimalString(entry.costMinor, input.currency),
    successRate: round(entry.success, 4),
    attemptsInWindow: entry.stats.attempts,
    avgProcessingTime: round(entry.seconds, 3),
    slaTarget: entry.rail.slaTarget,
    score: round(entry.score, 2),
    eliminated: entry.eliminated,
    note: candidateNote(entry, chosen, best, strategy),
  }));
  const notCarrying = scored
    .filter((entry) => entry.ineligible !== null)
    .map((entry) => ({ railId: entry.rail.id, rail: entry.rail.name, reason: entry.ineligible ?? "" }));
  return {
    strategy,
    chosenRailId: chosen.rail.id,
    chosenRail: chosen.rail.name,
    defaultRailId: fallback.rail.id,
    defaultRail: fallback.rail.name,
    currency: input.currency,
    amountMinor: input.amountMinor,
    savingMinor,
    saving: toDecimalString(savingMinor, input.currency),
    reason,
    decidedAt: input.now.toISOString(),
    candidates,
    destinationCountry: input.country,
    excluded: notCarrying,
  };
}

function candidateNote(
  entry: Scored,
  chosen: Scored,
  best: Scored | undefined,
  strategy: RoutingDecision["strategy"],
): string {
  if (entry === chosen) {
    if (!best && strategy === "expected_value")
      return "Chosen (static fallback order: every available rail is out of rotation)";
    return `Chosen (${strategy.replace("_", " ")})${entry.eliminated ? (strategy === "exploration" ? "; out of rotation, tried as a probe" : "; out of rotation") : ""}`;
  }
  const unavailable = unavailableBecause(entry);
  if (unavailable) return `Not routable: ${unavailable}`;
  if (entry.ineligible) return `Not eligible: ${entry.ineligible}`;
  if (entry.eliminated) return eliminationNote(entry);
  if (entry === best)
    return `Best expected value, not used: ${strategy === "exploration" ? "this payment is in the exploration share" : `the request ${strategy === "forced" ? "forces" : "prefers"} ${chosen.rail.name}`}`;
  return `Lower expected value than ${best?.rail.name ?? chosen.rail.name}`;
}

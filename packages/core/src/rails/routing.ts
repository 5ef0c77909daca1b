import type { RoutingDecision } from "../payments/model";
import type { CoreContext } from "../shared/context";
import type { Rail } from "./model";
import { rankRails, type RouteRequest } from "./ranking";
import { readRoutingWindow } from "./stats";
import { listRails } from "./store";

/**
 * Smart routing (docs/payments-and-rails.md#routing): the entry points the payments service calls.
 * - chooseRail: reads the rails (console order) and the routing window of real attempts, then
 *   ranks with the pure rankRails (ranking.ts: the formula, constants and rules are documented there).
 * - routePayment: a new payment's decision together with the rail its quote shows, ranked on the
 *   same rails and window, so the fee held is exactly the fee the payer was quoted.
 * - decisionItems / attemptOutcomeItems (stats.ts): the items the payments service appends to its
 *   own transactions, so decisions, savings and attempt counters are written exactly when the
 *   payment changes.
 */

export type { RouteRequest } from "./ranking";
export { attemptOutcomeItems, decisionItems, type AttemptOutcome, type DecisionContext } from "./stats";

/**
 * The rail for one payment attempt. Throws AppError 422 `rail_not_available` (forceRail names no
 * active rail, or one already tried) and 422 `no_rail_available` (nothing active, or every active
 * rail already tried). Retries pass the rails already tried in `excludeRailIds`.
 */
export async function chooseRail(ctx: CoreContext, request: RouteRequest): Promise<RoutingDecision> {
  const now = ctx.clock();
  const [rails, window] = await Promise.all([listRails(ctx), readRoutingWindow(ctx, now)]);
  return rankRails({ ...request, rails, window, now });
}

/** A new payment's route: the rail that carries attempt 1, and the rail the payer was quoted. */
export interface PaymentRoute {
  decision: RoutingDecision;
  /** The rail routing chose (an exploration or probe pick is not the quoted one). */
  rail: Rail;
  /**
   * The best-ranked rail, what POST /v1/payments/quote shows (no exploration, preferredRail and
   * forceRail applied): its fee is what the payment holds, and the most the payer is charged.
   */
  quotedRail: Rail;
}

/** chooseRail for a payment's first attempt, plus the quoted rail from the same snapshot. */
export async function routePayment(ctx: CoreContext, request: RouteRequest): Promise<PaymentRoute> {
  const now = ctx.clock();
  const [rails, window] = await Promise.all([listRails(ctx), readRoutingWindow(ctx, now)]);
  const decision = rankRails({ ...request, rails, window, now });
  // Only the exploration and probe shares depart from the best rail; ranked again without them, the
  // same rails and window give the quote's pick.
  const quoted =
    decision.strategy === "exploration" ? rankRails({ ...request, explore: false, rails, window, now }) : decision;
  const find = (id: string): Rail => {
    const rail = rails.find((candidate) => candidate.id === id);
    if (!rail) throw new Error(`routePayment: rail ${id} is not among the listed rails`);
    return rail;
  };
  return { decision, rail: find(decision.chosenRailId), quotedRail: find(quoted.chosenRailId) };
}

import type { RoutingDecision } from "../payments/model";
import type { CoreContext } from "../shared/context";
import { rankRails, type RouteRequest } from "./ranking";
import { readRoutingWindow } from "./stats";
import { listRails } from "./store";

/**
 * Smart routing (contract §5): the entry points the payments service calls.
 * - chooseRail: reads the rails (console order) and the routing window of real attempts, then
 *   ranks with the pure rankRails (ranking.ts: the formula, constants and rules are documented there).
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

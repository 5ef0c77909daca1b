import type { QuoteCurrency, Rail, RailChange } from "@fintech/core/rails/model";
import type { RailCostResult } from "@fintech/core/rails/quotes";
import type { RailEditFormValues } from "@fintech/core/rails/edit-form";
import { DecisionList, RailMetrics, Throughput, type ThroughputRange } from "@fintech/core/rails/metrics-model";
import type { z } from "zod";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { ApiError } from "./errors";
import { unwrapData, unwrapList } from "./envelope";
import { segment, withQuery } from "./query";

/**
 * The payment rails as data (docs/payments-and-rails.md#rails-are-data; their fields and rules in
 * docs/product/payment-rails.md#data and docs/product/payment-rails.md#validation): the list and
 * one rail (any signed-in user), an admin's edit and start/stop (a user is answered 403), and the
 * quote that compares every active rail for an amount. Wire shapes are core's own types
 * (rails/model is browser-safe: its formula is the one the simulator runs).
 */

const RAILS = "/api/v1/rails";

export type {
  Rail,
  RailChange,
  RailCostResult,
  RailEditFormValues,
  QuoteCurrency,
  RailMetrics,
  Throughput,
  ThroughputRange,
  DecisionList,
};

/** One listed routing decision: the payment, the attempt it routed, when, and the decision itself. */
export type RoutingDecisionEntry = DecisionList["decisions"][number];

/** How many recent routing decisions the console lists. */
export const DECISIONS_SHOWN = 10;

/** GET /rails/{id}: the rail and its last admin changes, newest first. */
export type RailDetail = Rail & { history: RailChange[] };

/**
 * A statistics reply read through core's schema (the one the server writes it with): a mismatch is
 * an error, never a blank panel.
 */
function statsReply<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(unwrapData<unknown>(body));
  if (!parsed.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return parsed.data;
}

export function railEndpoints(http: HttpClient) {
  return {
    /** GET /rails: every rail, in the server's order. */
    async list(signal?: AbortSignal): Promise<Rail[]> {
      return unwrapList<Rail>(await http.authCall<unknown>("GET", RAILS, { signal }), ["data", "rails"]);
    },
    async get(id: string, signal?: AbortSignal): Promise<RailDetail> {
      return unwrapData<RailDetail>(await http.authCall<unknown>("GET", `${RAILS}/${segment(id)}`, { signal }));
    },
    /**
     * PUT /rails/{id}: the edit form as typed (FX spread and error injection in percent; the server
     * stores fractions).
     */
    async update(id: string, edit: RailEditFormValues): Promise<Rail> {
      return unwrapData<Rail>(await http.authCall<unknown>("PUT", `${RAILS}/${segment(id)}`, { body: edit }));
    },
    /** POST /rails/{id}/start: the rail becomes active. */
    async start(id: string): Promise<Rail> {
      return unwrapData<Rail>(await http.authCall<unknown>("POST", `${RAILS}/${segment(id)}/start`, { body: {} }));
    },
    /** POST /rails/{id}/stop: the rail goes down (out of quotes and routing). */
    async stop(id: string): Promise<Rail> {
      return unwrapData<Rail>(await http.authCall<unknown>("POST", `${RAILS}/${segment(id)}/stop`, { body: {} }));
    },
    /**
     * GET /rails/metrics: the platform's rail figures from real attempts over the last 30 days
     * (volume, success, savings, per rail).
     */
    async metrics(signal?: AbortSignal): Promise<RailMetrics> {
      return statsReply(
        RailMetrics,
        await http.authCall<unknown>("GET", `${RAILS}/metrics`, { signal }),
        "Rail metrics",
      );
    },
    /** GET /rails/throughput?range=: attempts per rail per time bucket (1h, 24h, 7d, 30d). */
    async throughput(range: ThroughputRange, signal?: AbortSignal): Promise<Throughput> {
      return statsReply(
        Throughput,
        await http.authCall<unknown>("GET", withQuery(`${RAILS}/throughput`, { range }), { signal }),
        "Throughput",
      );
    },
    /**
     * GET /rails/decisions?limit=: the newest routing decisions (an admin: everyone's; a user:
     * their own) and savings per day.
     */
    async decisions(limit: number, signal?: AbortSignal): Promise<DecisionList> {
      return statsReply(
        DecisionList,
        await http.authCall<unknown>("GET", withQuery(`${RAILS}/decisions`, { limit }), { signal }),
        "Routing decisions",
      );
    },
    /**
     * POST /rails/quote {amount, currency} -> {data: {amount, currency, results, optimalRailId}}:
     * the cost on every active rail, the cheapest isOptimal.
     */
    async quote(amount: string, currency: QuoteCurrency, signal?: AbortSignal): Promise<RailCostResult[]> {
      return unwrapList<RailCostResult>(
        unwrapData<unknown>(
          await http.authCall<unknown>("POST", `${RAILS}/quote`, { body: { amount, currency }, signal }),
        ),
        ["results"],
      );
    },
  };
}

export type RailsApi = ReturnType<typeof railEndpoints>;

/**
 * The rails API over the app's one client (same origin, the stored session's token, a 401 signs
 * out), loaded with the console so the initial bundle does not carry it.
 */
export const railsApi: RailsApi = railEndpoints(appHttp);

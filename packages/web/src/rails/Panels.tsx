import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import type { RailMetrics, RoutingDecisionEntry } from "../api/rails";
import { cardClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { ErrorRateBar, TimeBar } from "./Bars";
import { NO_PAYMENTS_YET, SETTLEMENT_EMPTY, secondsText, THROUGHPUT_RANGES, type ThroughputRange } from "./format";
import { useRailThroughput, useRoutingDecisions } from "./hooks";
import { Loaded } from "./Loaded";
import { describeThroughput, railTotals } from "./throughput";
import { ThroughputChart } from "./ThroughputChart";
import { estimateText, performanceBars, savingText, STRATEGY_LABELS } from "./traffic";

/**
 * The console's panels over real traffic (spec 001 §2, issue 12): routing decisions, throughput
 * and per-rail performance from GET /rails/decisions, /throughput and /metrics. Without traffic
 * they say so plainly; nothing here shows a sample figure. Settlement files wait for reconciliation.
 */

/** A titled card of the console. */
export function Panel({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  id?: string;
}) {
  const generated = useId();
  const headingId = id ?? generated;
  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <h2 id={headingId} className={sectionTitleClass}>
        {title}
      </h2>
      {description && <p className={`mt-1 ${subtleTextClass}`}>{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A dashed box saying what will appear here and when. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-4 text-center dark:border-slate-700">
      <p className="font-semibold text-slate-800 dark:text-slate-100">{title}</p>
      {children && <p className={`mt-1 ${subtleTextClass}`}>{children}</p>}
    </div>
  );
}

const decisionTime = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" });
};

/** One routing decision: the chosen rail and why, what it saved, and every candidate with its figures. */
function DecisionItem({ entry }: { entry: RoutingDecisionEntry }) {
  const { decision } = entry;
  return (
    <li className="min-w-0 py-3" data-payment={entry.paymentId}>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-semibold text-slate-900 dark:text-white">
          {formatMoney(decision.amountMinor, decision.currency)} → {decision.chosenRail}
        </span>
        <time dateTime={entry.at} className="text-xs text-slate-600 dark:text-slate-300">
          {decisionTime(entry.at)}
        </time>
      </p>
      <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">
        {STRATEGY_LABELS[decision.strategy]}
        {entry.attemptNumber > 1 ? ` · retry, attempt ${entry.attemptNumber}` : ""} · payment{" "}
        <span className="break-all font-mono">{entry.paymentId}</span>
      </p>
      <p className="mt-1 break-words text-sm text-slate-800 dark:text-slate-100">
        <span className="font-medium">Why this rail: </span>
        {decision.reason}
      </p>
      <p
        className={`mt-0.5 text-sm font-medium ${decision.savingMinor > 0 ? "text-emerald-700 dark:text-emerald-300" : decision.savingMinor < 0 ? "text-amber-800 dark:text-amber-300" : "text-slate-700 dark:text-slate-200"}`}
      >
        {savingText(decision)}
      </p>
      <details className="mt-1 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700 dark:text-indigo-300">
          Candidates ({decision.candidates.length})
        </summary>
        <ul className="mt-1 space-y-1">
          {decision.candidates.map((candidate) => (
            <li key={candidate.railId} className="break-words text-xs text-slate-700 dark:text-slate-200">
              <span
                className={`font-semibold ${candidate.railId === decision.chosenRailId ? "text-emerald-700 dark:text-emerald-300" : ""}`}
              >
                {candidate.rail}
                {candidate.railId === decision.chosenRailId ? " (chosen)" : ""}
              </span>
              {` · cost ${formatMoney(candidate.costMinor, decision.currency)} · success est. ${estimateText(candidate.successRate)} · ${secondsText(candidate.avgProcessingTime)} · score ${candidate.score.toFixed(1)}`}
              {candidate.eliminated ? " · eliminated" : ""}
              {candidate.note ? ` · ${candidate.note}` : ""}
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}

/** Smart Payment Routing: the newest decisions (candidates, why this rail, saving) and the savings per day. */
export function RoutingPanel({ activeRails }: { activeRails: number }) {
  const decisions = useRoutingDecisions();
  return (
    <Panel
      title="Smart Payment Routing"
      description="Each payment goes to the active rail with the best expected value: success rate, cost, SLA and speed, with a small exploration share."
    >
      <Loaded query={decisions} what="routing decisions">
        {(list) =>
          list.decisions.length === 0 ? (
            <EmptyState title={NO_PAYMENTS_YET}>
              {activeRails > 0
                ? `${activeRails} active ${activeRails === 1 ? "rail is" : "rails are"} ready to be routed to.`
                : "No rail is active: start one so payments can be routed."}
            </EmptyState>
          ) : (
            <>
              <p className={subtleTextClass}>
                {list.scope === "all" ? "Newest decisions of every user." : "Newest decisions for your payments."}
              </p>
              <ol aria-label="Recent routing decisions" className="divide-y divide-slate-200 dark:divide-slate-800">
                {list.decisions.map((entry) => (
                  <DecisionItem key={`${entry.paymentId}-${entry.attemptNumber}`} entry={entry} />
                ))}
              </ol>
              {list.savingsByDay.length > 0 && (
                <div className="mt-3">
                  <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Savings per day</h3>
                  <ul className="mt-1 space-y-0.5 text-sm text-slate-700 dark:text-slate-200">
                    {list.savingsByDay.map((row) => (
                      <li key={`${row.day}-${row.currency}`}>
                        {row.day}: {formatMoney(row.savingMinor, row.currency)} over {row.decisions}{" "}
                        {row.decisions === 1 ? "decision" : "decisions"}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )
        }
      </Loaded>
    </Panel>
  );
}

const RANGE_LABELS: Record<ThroughputRange, string> = {
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
  "30d": "30 days",
};

/** Throughput monitor: attempts per rail over the chosen range, as a chart and as a table. */
export function ThroughputMonitor() {
  const [range, setRange] = useState<ThroughputRange>("24h");
  const groupId = useId();
  const throughput = useRailThroughput(range);
  return (
    <Panel
      title="Throughput monitor"
      description="Payment attempts per rail over time (finished attempts: succeeded and failed)."
    >
      <div role="radiogroup" aria-labelledby={groupId} className="flex flex-wrap items-center gap-2">
        <span id={groupId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Range
        </span>
        {THROUGHPUT_RANGES.map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={range === value}
            title={RANGE_LABELS[value]}
            onClick={() => setRange(value)}
            className={`rounded-lg border px-3 py-1 text-sm font-semibold ${
              range === value
                ? "border-indigo-600 bg-indigo-600 text-white dark:border-indigo-400 dark:bg-indigo-400 dark:text-slate-950"
                : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
            }`}
          >
            {value}
          </button>
        ))}
      </div>
      <div className="mt-4">
        <Loaded query={throughput} what="throughput">
          {(data) => {
            const totals = railTotals(data).filter((total) => total.transactions > 0);
            if (totals.length === 0)
              return (
                <EmptyState title={NO_PAYMENTS_YET}>
                  No payment attempts in the last {RANGE_LABELS[data.range]}.
                </EmptyState>
              );
            return (
              <>
                <ThroughputChart throughput={data} description={describeThroughput(data, RANGE_LABELS[data.range])} />
                <table className="mt-3 w-full table-fixed text-left text-sm">
                  <caption className="sr-only">Attempts per rail over the last {RANGE_LABELS[data.range]}</caption>
                  <thead className="text-xs text-slate-600 dark:text-slate-300">
                    <tr>
                      <th scope="col" className="py-1 font-medium">
                        Rail
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Attempts
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Succeeded
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Failed
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200 tabular-nums text-slate-800 dark:divide-slate-800 dark:text-slate-100">
                    {totals.map((total) => (
                      <tr key={total.railId} data-rail={total.railId}>
                        <th scope="row" className="truncate py-1 font-semibold">
                          {total.rail}
                        </th>
                        <td className="py-1 text-right">{total.transactions}</td>
                        <td className="py-1 text-right">{total.succeeded}</td>
                        <td className="py-1 text-right">{total.failed}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            );
          }}
        </Loaded>
      </div>
    </Panel>
  );
}

/** Per rail over the metrics' window: attempts, the error-rate bar and the time bar from real attempts. */
export function RailPerformancePanel({ metrics }: { metrics: UseQueryResult<RailMetrics> }) {
  return (
    <Panel
      title="Rail performance"
      description="Error rate and average time per rail from real payment attempts over the last 30 days (time bar: out of 3 s)."
    >
      <Loaded query={metrics} what="rail performance">
        {(data) => (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.perRail.map((rail) => {
              const bars = performanceBars(rail);
              return (
                <li
                  key={rail.railId}
                  data-rail={rail.railId}
                  className="min-w-0 rounded-xl border border-slate-200 p-3 text-xs dark:border-slate-700"
                >
                  <p className="flex items-baseline justify-between gap-2 text-sm">
                    <span className="font-semibold text-slate-900 dark:text-white">{rail.rail}</span>
                    <span className="tabular-nums text-slate-700 dark:text-slate-200">
                      {rail.transactions} {rail.transactions === 1 ? "attempt" : "attempts"}
                    </span>
                  </p>
                  {bars ? (
                    <div className="mt-2 space-y-2">
                      <ErrorRateBar errorRate={bars.errorRate} />
                      <TimeBar seconds={bars.avgSeconds} />
                    </div>
                  ) : (
                    <p className={`mt-2 ${subtleTextClass}`}>No attempts in the last 30 days.</p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Loaded>
    </Panel>
  );
}

/** Settlement files arrive with reconciliation: clearly empty until then. */
export function SettlementPanel() {
  return (
    <Panel title="Settlement files" description="Files each rail settles with, matched against the ledger.">
      <EmptyState title={SETTLEMENT_EMPTY}>No settlement file has been imported.</EmptyState>
    </Panel>
  );
}

const FEATURES: readonly { title: string; text: string }[] = [
  {
    title: "Rails as data",
    text: "Six rails with their fees, FX spread, SLA and status, stored and edited by admins; every change is recorded.",
  },
  {
    title: "Start and stop",
    text: "An admin takes a rail out of service or back in; stopped rails are left out of quotes and routing.",
  },
  {
    title: "One cost formula",
    text: "Fixed fee + FX spread × amount (none for USD) + 0.1 % network fee, the same function in the browser and the API.",
  },
  {
    title: "Cost simulator",
    text: "Compare every active rail for an amount in USD, EUR, GBP or JPY; the cheapest is the Best Option.",
  },
  {
    title: "Smart routing",
    text: "Expected-value ranking with preferred and forced rails, an exploration share and elimination of failing rails.",
  },
  {
    title: "Settlement and throughput",
    text: "Per-rail throughput and settlement files with their variance, as payments and reconciliation run.",
  },
];

/** What the console offers, in words. */
export function FeatureGrid() {
  return (
    <Panel title="What the console offers">
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            <h3 className="font-semibold text-slate-900 dark:text-white">{feature.title}</h3>
            <p className={`mt-1 ${subtleTextClass}`}>{feature.text}</p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

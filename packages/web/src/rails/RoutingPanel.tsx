import type { RoutingDecisionEntry } from "../api/rails";
import { subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { NO_PAYMENTS_YET, secondsText } from "./format";
import { useRoutingDecisions } from "./hooks";
import { Loaded } from "./Loaded";
import { EmptyState, Panel } from "./Panel";
import { estimateText, savingText, STRATEGY_LABELS } from "./traffic";

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

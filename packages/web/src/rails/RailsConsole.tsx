import { CURRENCY_HOME_COUNTRY } from "@fintech/core/rails/regions";
import type { UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import toast from "react-hot-toast";
import type { QuoteCurrency, Rail, RailMetrics } from "../api/rails";
import { errorMessage } from "../api/errors";
import { cardClass, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { simulate, SIMULATOR_DEFAULTS, summarise, toggleAction, type RailSummary, type Simulation } from "./console";
import { CostSimulator } from "./CostSimulator";
import { percentText } from "./format";
import { useRailMetrics, useRails, useRailsViewer, useRailToggle } from "./hooks";
import { Loaded } from "./Loaded";
import { FeatureGrid } from "./FeatureGrid";
import { RailPerformancePanel } from "./RailPerformancePanel";
import { RoutingPanel } from "./RoutingPanel";
import { SettlementPanel } from "./SettlementPanel";
import { ThroughputMonitor } from "./ThroughputMonitor";
import { RailCard } from "./RailCard";
import { RailEditDrawer } from "./RailEditDrawer";
import { moneyLine, todaysSavings } from "./traffic";

/**
 * /payment-rails (docs/product/payment-rails.md#console): summary tiles from the rails and from
 * real traffic (GET /rails/metrics), a card per rail (admins edit, start and stop them; others
 * read), the edit drawer, the cost simulator, the Smart Payment Routing panel (recent decisions),
 * the throughput monitor, per-rail performance bars, the settlement-files panel (the latest
 * reconciled files, for admins) and the feature grid. Without traffic, each panel says so in words.
 */
export function RailsConsole() {
  const { isAdmin } = useRailsViewer();
  const rails = useRails();
  const metrics = useRailMetrics();
  const toggle = useRailToggle();
  const [editing, setEditing] = useState<Rail | null>(null);
  const [amount, setAmount] = useState(SIMULATOR_DEFAULTS.amount);
  const [currency, setCurrency] = useState<QuoteCurrency>(SIMULATOR_DEFAULTS.currency);
  const [payoutCurrency, setPayoutCurrency] = useState<QuoteCurrency>(SIMULATOR_DEFAULTS.payoutCurrency);
  const [country, setCountry] = useState(SIMULATOR_DEFAULTS.country);

  const list = rails.data ?? [];
  const summary = summarise(list);
  const simulation = simulate(list, amount, currency, payoutCurrency, country);

  const onToggle = async (rail: Rail) => {
    const action = toggleAction(rail);
    try {
      const changed = await toggle.mutateAsync({ id: rail.id, action });
      toast.success(`${changed.name} ${action === "stop" ? "stopped" : "started"}`);
    } catch (caught) {
      toast.error(errorMessage(caught, `Failed to ${action} ${rail.name}`));
    }
  };
  const togglingId = toggle.isPending ? toggle.variables?.id : undefined;

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Payment rails
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Payment Rails Console
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Compare the rails by cost, success rate and speed, simulate what a payment costs on each, and{" "}
          {isAdmin ? "adjust their settings." : "see their settings."}
        </p>
        {!isAdmin && (
          <p className="mt-3 rounded-xl border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
            Read-only: only admins edit, start and stop rails.
          </p>
        )}
      </header>

      <Loaded query={rails} what="the rails" errorFrame={cardClass}>
        {() => (
          <>
            <SummaryTiles summary={summary} simulation={simulation} metrics={metrics} />

            <section aria-labelledby="rails-heading">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="rails-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
                  Rails
                </h2>
                {summary.sampleFigures && (
                  <p className="text-xs text-slate-600 dark:text-slate-300">
                    Success rate, error rate and time: sample figures until payments run.
                  </p>
                )}
              </div>
              <div className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {list.map((rail) => (
                  <RailCard
                    key={rail.id}
                    rail={rail}
                    isAdmin={isAdmin}
                    toggling={togglingId === rail.id}
                    onEdit={setEditing}
                    onToggle={(target) => void onToggle(target)}
                  />
                ))}
              </div>
            </section>

            <div className="grid items-start gap-6 lg:grid-cols-2">
              <CostSimulator
                amount={amount}
                currency={currency}
                simulation={simulation}
                onAmount={setAmount}
                onCurrency={(next) => {
                  // Sending another currency defaults to paying out the same one, at its home.
                  setCurrency(next);
                  setPayoutCurrency(next);
                  setCountry(CURRENCY_HOME_COUNTRY[next]);
                }}
                onPayoutCurrency={setPayoutCurrency}
                onCountry={setCountry}
              />
              <RoutingPanel activeRails={summary.active} />
            </div>
            <ThroughputMonitor />
            <RailPerformancePanel metrics={metrics} />
            <SettlementPanel />
            <FeatureGrid />
          </>
        )}
      </Loaded>

      {editing && isAdmin && <RailEditDrawer rail={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function Tile({ label, value, note, muted = false }: { label: string; value: string; note?: string; muted?: boolean }) {
  return (
    <div className={`${cardClass} min-w-0 !p-4`}>
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd
        className={`mt-1 break-words ${muted ? "text-base font-semibold text-slate-700 dark:text-slate-200" : "text-xl font-bold tabular-nums text-slate-900 dark:text-white"}`}
      >
        {value}
      </dd>
      {note && <dd className="mt-1 text-xs text-slate-600 dark:text-slate-300">{note}</dd>}
    </div>
  );
}

const TRAFFIC_TILES = ["Volume", "Attempts", "Cost savings", "Savings today"] as const;

/** The traffic tiles while the metrics load, or when they failed (the performance panel offers Try again). */
function TrafficTilesWaiting({ metrics }: { metrics: UseQueryResult<RailMetrics> }) {
  const value = metrics.isError ? "Unavailable" : "Loading…";
  const note = metrics.isError ? errorMessage(metrics.error, "Failed to load the metrics") : "From real payments";
  return TRAFFIC_TILES.map((label) => <Tile key={label} label={label} value={value} note={note} muted />);
}

/**
 * Tiles computed from the rails and the simulator's amount, and from real traffic (GET
 * /rails/metrics, the last 30 days): volume of succeeded payments, attempts and their success
 * rate, and what routing saved against each payment's default rail (in all, and today).
 */
function SummaryTiles({
  summary,
  simulation,
  metrics,
}: {
  summary: RailSummary;
  simulation: Simulation;
  metrics: UseQueryResult<RailMetrics>;
}) {
  const best = simulation.best;
  const data = metrics.data;
  const volume = data
    ? moneyLine(data.volumeByCurrency.map((row) => ({ currency: row.currency, minor: row.volumeMinor })))
    : null;
  const savings = data
    ? moneyLine(data.savingsByCurrency.map((row) => ({ currency: row.currency, minor: row.savingMinor })))
    : null;
  const today = data ? todaysSavings(data) : null;
  return (
    <dl aria-label="Summary" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Tile label="Active rails" value={`${summary.active} of ${summary.total}`} />
      <Tile
        label="Down or maintenance"
        value={String(summary.down + summary.maintenance)}
        note={`${summary.down} down · ${summary.maintenance} maintenance`}
      />
      <Tile
        label="Avg success rate"
        value={summary.activeSuccessRate === null ? "N/A" : `${percentText(summary.activeSuccessRate)}%`}
        note={summary.sampleFigures ? "Active rails, sample figures" : "Active rails"}
      />
      <Tile
        label="Cheapest rail"
        value={best ? best.name : "N/A"}
        note={
          best
            ? `${formatMoney(best.totalCost, simulation.currency)} for ${formatMoney(simulation.amount, simulation.currency)}`
            : "Enter an amount above 0"
        }
      />
      {!data ? (
        <TrafficTilesWaiting metrics={metrics} />
      ) : (
        <>
          <Tile
            label="Volume"
            value={volume ?? "No payments yet"}
            note={`Succeeded payments, last ${data.windowDays} days`}
            muted={volume === null}
          />
          <Tile
            label="Attempts"
            value={data.totalTransactions === 0 ? "No payments yet" : data.totalTransactions.toLocaleString("en-US")}
            note={
              data.successRate === null
                ? `Last ${data.windowDays} days`
                : `${percentText(data.successRate)}% succeeded, last ${data.windowDays} days`
            }
            muted={data.totalTransactions === 0}
          />
          <Tile
            label="Cost savings"
            value={savings ?? (data.decisions === 0 ? "No payments yet" : "Nothing saved yet")}
            note={`Against each payment's default rail, ${data.decisions} ${data.decisions === 1 ? "decision" : "decisions"}`}
            muted={savings === null}
          />
          <Tile
            label="Savings today"
            value={today ?? "None yet today"}
            note="From routing decisions (UTC day)"
            muted={today === null}
          />
        </>
      )}
    </dl>
  );
}

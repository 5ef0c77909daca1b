import { useId, useState, type ReactNode } from "react";
import { cardClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { NO_PAYMENTS_YET, SETTLEMENT_EMPTY, THROUGHPUT_RANGES, type ThroughputRange } from "./format";

/**
 * The console's panels that need payments or reconciliation (spec 001 §2): until payments run,
 * they say so plainly; nothing here shows a sample figure.
 */

/** A titled card of the console. */
export function Panel({ title, description, children, id }: { title: string; description?: string; children: ReactNode; id?: string }) {
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

/** Smart Payment Routing: recent decisions (candidates, why this rail, saving) once payments run. */
export function RoutingPanel({ activeRails }: { activeRails: number }) {
  return (
    <Panel
      title="Smart Payment Routing"
      description="Each payment goes to the active rail with the best expected value: success rate, cost, SLA and speed, with a small exploration share."
    >
      <EmptyState title={NO_PAYMENTS_YET}>
        {activeRails > 0
          ? `${activeRails} active ${activeRails === 1 ? "rail is" : "rails are"} ready to be routed to.`
          : "No rail is active: start one so payments can be routed."}
      </EmptyState>
    </Panel>
  );
}

const RANGE_LABELS: Record<ThroughputRange, string> = { "1h": "1 hour", "24h": "24 hours", "7d": "7 days", "30d": "30 days" };

/** Throughput monitor: a series per rail over the chosen range, once payments run. */
export function ThroughputMonitor() {
  const [range, setRange] = useState<ThroughputRange>("24h");
  const groupId = useId();
  return (
    <Panel title="Throughput monitor" description="Payments per rail over time.">
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
        <EmptyState title={NO_PAYMENTS_YET}>No throughput in the last {RANGE_LABELS[range]}.</EmptyState>
      </div>
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
  { title: "Rails as data", text: "Six rails with their fees, FX spread, SLA and status, stored and edited by admins; every change is recorded." },
  { title: "Start and stop", text: "An admin takes a rail out of service or back in; stopped rails are left out of quotes and routing." },
  { title: "One cost formula", text: "Fixed fee + FX spread × amount (none for USD) + 0.1 % network fee, the same function in the browser and the API." },
  { title: "Cost simulator", text: "Compare every active rail for an amount in USD, EUR, GBP or JPY; the cheapest is the Best Option." },
  { title: "Smart routing", text: "Expected-value ranking with preferred and forced rails, an exploration share and elimination of failing rails." },
  { title: "Settlement and throughput", text: "Per-rail throughput and settlement files with their variance, as payments and reconciliation run." },
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

import type { Rail, RailStatus } from "@fintech/core/rails/model";
import { secondaryButtonClass } from "../components/styles";
import { cardClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { toggleAction } from "./console";
import { RailIcon } from "./RailIcon";
import { ErrorRateBar, TimeBar } from "./Bars";
import { fractionAsPercent, percentText, secondsText } from "./format";

const STATUS_LABELS: Record<RailStatus, string> = { active: "Active", maintenance: "Maintenance", down: "Down" };
const STATUS_TONES: Record<RailStatus, string> = {
  active: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  maintenance: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  down: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

export function RailStatusBadge({ status }: { status: RailStatus }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}
    >
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

interface RailCardProps {
  rail: Rail;
  isAdmin: boolean;
  /** Whether this rail's start/stop is in flight. */
  toggling: boolean;
  onEdit: (rail: Rail) => void;
  onToggle: (rail: Rail) => void;
}

/**
 * One rail (docs/product/payment-rails.md#rail-cards): icon, name, type, status, success rate,
 * average time, fixed fee, FX spread in percent, SLA, the error-rate bar (green < 1 %,
 * yellow < 5 %, red otherwise) and the time bar (average time out of 3 s). Admins get the settings
 * button and the start/stop toggle; others see the card read-only.
 */
export function RailCard({ rail, isAdmin, toggling, onEdit, onToggle }: RailCardProps) {
  const headingId = `rail-${rail.id}-name`;
  const action = toggleAction(rail);
  return (
    <article aria-labelledby={headingId} className={`${cardClass} flex min-w-0 flex-col !p-4`}>
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-700 dark:bg-slate-800 dark:text-indigo-300"
        >
          <RailIcon type={rail.type} />
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="truncate text-base font-semibold text-slate-900 dark:text-white">
            {rail.name}
          </h3>
          <p className="text-xs text-slate-600 dark:text-slate-300">{rail.type}</p>
        </div>
        <RailStatusBadge status={rail.status} />
      </div>

      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
        <Figure label="Success rate" value={`${percentText(rail.successRate)}%`} />
        <Figure label="Avg time" value={secondsText(rail.avgProcessingTime)} />
        <Figure label="Fixed fee" value={formatMoney(rail.fixedFee, "USD")} />
        <Figure label="FX spread" value={fractionAsPercent(rail.fxSpread)} />
        <Figure label="SLA target" value={`${percentText(rail.slaTarget)}%`} />
        {rail.errorInjection > 0 && (
          <Figure label="Error injection" value={fractionAsPercent(rail.errorInjection, 1)} />
        )}
      </dl>

      <div className="mt-3 space-y-2 text-xs">
        <ErrorRateBar errorRate={rail.errorRate} />
        <TimeBar seconds={rail.avgProcessingTime} />
      </div>

      {rail.lastChange && (
        <p className={`mt-3 break-words text-xs ${subtleTextClass}`}>
          Last{" "}
          {rail.lastChange.action === "update" ? "edited" : rail.lastChange.action === "start" ? "started" : "stopped"}{" "}
          by {rail.lastChange.by}
          {changedAt(rail.lastChange.at)}
        </p>
      )}

      <div className="mt-auto pt-3">
        {isAdmin ? (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={`${secondaryButtonClass} !px-3 !py-1.5`}
              onClick={() => onEdit(rail)}
              aria-label={`Settings of ${rail.name}`}
            >
              Settings
            </button>
            <button
              type="button"
              className={`${secondaryButtonClass} !px-3 !py-1.5`}
              onClick={() => onToggle(rail)}
              disabled={toggling}
              aria-label={`${action === "stop" ? "Stop" : "Start"} ${rail.name}`}
            >
              {toggling ? (
                <Spinner label={action === "stop" ? "Stop" : "Start"} />
              ) : action === "stop" ? (
                "Stop"
              ) : (
                "Start"
              )}
            </button>
          </div>
        ) : (
          <p className="text-xs text-slate-600 dark:text-slate-300">Read-only</p>
        )}
      </div>
    </article>
  );
}

/** " on Jan 15, 2026, 10:00 AM" in the viewer's time zone; nothing when the time is unreadable. */
function changedAt(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? ""
    : ` on ${at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })}`;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="font-semibold tabular-nums text-slate-900 dark:text-white">{value}</dd>
    </div>
  );
}

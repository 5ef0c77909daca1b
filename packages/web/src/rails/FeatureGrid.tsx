import { subtleTextClass } from "../ledger/ui";
import { Panel } from "./Panel";

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

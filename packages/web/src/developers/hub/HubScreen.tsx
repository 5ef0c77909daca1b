import { Link } from "react-router-dom";
import { hubDestinations, type HubDestination } from "./destinations";

/** /developers: the developer hub, one card per developer screen. */
export function HubScreen() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Developer hub
        </h1>
        <p className="mt-3 max-w-3xl text-lg text-slate-600 dark:text-slate-300">
          Build on the platform&apos;s ledger API: one JSON HTTP API with bearer API keys, idempotent writes, a live
          event stream and a typed TypeScript SDK. New here? Start with the quickstart.
        </p>
      </header>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2" aria-label="Developer tools">
        {hubDestinations.map((destination) => (
          <li key={destination.to}>
            <DestinationCard destination={destination} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The title link stretches over the card, so the card's accessible name is exactly its title. */
function DestinationCard({ destination }: { destination: HubDestination }) {
  return (
    <article className="relative h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm focus-within:ring-2 focus-within:ring-indigo-600 hover:border-indigo-400 dark:border-slate-800 dark:bg-slate-900">
      <span aria-hidden="true" className="text-2xl">
        {destination.icon}
      </span>
      <h2 className="mt-2 text-lg font-semibold text-slate-900 dark:text-white">
        <Link to={destination.to} className="outline-none after:absolute after:inset-0 after:content-['']">
          {destination.title}
        </Link>
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{destination.purpose}</p>
    </article>
  );
}

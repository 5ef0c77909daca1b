import { Link } from "react-router-dom";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";

/** The home hero; the tile grid and the four sections below it arrive with the home page issue. */
export default function HomePage() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(79,70,229,0.18),transparent_60%)]"
      />
      <div className="relative mx-auto max-w-5xl px-4 py-24 text-center sm:px-6 sm:py-32">
        <p className="text-sm font-semibold uppercase tracking-widest text-indigo-700 dark:text-indigo-300">
          Enterprise fintech infrastructure
        </p>
        <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl dark:text-white">
          Build production-ready fintech applications
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-300">
          A double-entry core ledger, payment orchestration over UPI, SEPA and crypto rails, KYC and risk, and a dual gRPC
          and REST API surface, set up with one command.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <Link to="/ledger" className={`${primaryButtonClass} px-6 py-3 text-base`}>
            Start Building
          </Link>
          <Link to="/developers/docs" className={`${secondaryButtonClass} px-6 py-3 text-base`}>
            View Documentation
          </Link>
        </div>
      </div>
    </section>
  );
}

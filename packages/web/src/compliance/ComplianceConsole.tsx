import { presetPeriod } from "@fintech/core/compliance/model";
import { useState } from "react";
import { Link } from "react-router-dom";
import { LockIcon } from "../components/icons";
import { secondaryButtonClass } from "../components/styles";
import { subtleTextClass } from "../ledger/ui";
import type { Period } from "./api";
import { useComplianceViewer } from "./hooks";
import { PeriodPicker } from "./PeriodPicker";
import { CtrSection } from "./CtrSection";
import { SarSection } from "./SarSection";
import { TaxSection } from "./TaxSection";

/**
 * /compliance (docs/money-operations.md#compliance-reports): a period, then the currency
 * transaction report, the suspicious-activity candidates with their cases (file, dismiss with a
 * reason, reopen) and the tax due on fee and FX revenue, each exported as CSV or PDF made on the
 * server. Administrators only: anyone else reads a plain explanation (the server answers 403).
 */
export function ComplianceConsole() {
  const { isAdmin } = useComplianceViewer();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Compliance reports
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Cash reported per customer and day, the activity the rules flag for a suspicious-activity review, and the tax
          due on the platform's fee and FX revenue. All days are UTC.
        </p>
      </header>
      {isAdmin ? <Reports /> : <NotAdmin />}
    </div>
  );
}

function NotAdmin() {
  return (
    <section
      aria-labelledby="compliance-not-admin"
      className="mx-auto mt-10 flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="24" height="24" />
      </span>
      <h2 id="compliance-not-admin" className="mt-4 text-xl font-bold text-slate-900 dark:text-white">
        Administrators only
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        Compliance reports name customers and their money: only administrators may open them.
      </p>
      <Link to="/dashboard" className={`${secondaryButtonClass} mt-6`}>
        Go to the dashboard
      </Link>
    </section>
  );
}

function Reports() {
  const [period, setPeriod] = useState<Period>(() => presetPeriod("last7", new Date()));
  return (
    <>
      <PeriodPicker period={period} onChange={setPeriod} />
      <SarSection period={period} />
      <CtrSection period={period} />
      <TaxSection period={period} />
    </>
  );
}

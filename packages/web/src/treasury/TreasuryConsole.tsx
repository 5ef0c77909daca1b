import { AdminTreasuryPanels } from "./AdminTreasuryPanels";
import { useTreasuryViewer } from "./hooks";
import { QuotePanel } from "./QuotePanel";
import { RatesPanel } from "./RatesPanel";
import { subtleTextClass } from "../ledger/ui";

/**
 * /treasury (docs/money-operations.md#fx-and-treasury): the rates with each pair's history, a
 * quote with its live 30-second countdown and the conversion between two of the user's accounts
 * that uses it; administrators also set rates and spreads, import the ECB file, and read the FX
 * positions and the FX revenue by day.
 */
export function TreasuryConsole() {
  const { isAdmin } = useTreasuryViewer();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Treasury &amp; FX
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Exchange rates with their history, quotes locked for 30 seconds, and conversions between your accounts. The
          spread is always shown as its own amount.
        </p>
      </header>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <RatesPanel />
        <QuotePanel />
      </div>
      {isAdmin && <AdminTreasuryPanels />}
    </div>
  );
}

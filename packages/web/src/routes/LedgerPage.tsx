import { LedgerWorkspace } from "../ledger/LedgerWorkspace";

/** /ledger: the ledger workspace (guarded; see routeTable). */
export default function LedgerPage() {
  return <LedgerWorkspace />;
}

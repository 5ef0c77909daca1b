import { ReconciliationConsole } from "../reconciliation/ReconciliationConsole";

/** /reconciliation: settlement files, breaks and clearing positions (guarded; administrators only inside). */
export default function ReconciliationPage() {
  return <ReconciliationConsole />;
}

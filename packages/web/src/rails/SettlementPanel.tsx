import { SETTLEMENT_EMPTY } from "./format";
import { EmptyState, Panel } from "./Panel";

/** Settlement files arrive with reconciliation: clearly empty until then. */
export function SettlementPanel() {
  return (
    <Panel title="Settlement files" description="Files each rail settles with, matched against the ledger.">
      <EmptyState title={SETTLEMENT_EMPTY}>No settlement file has been imported.</EmptyState>
    </Panel>
  );
}

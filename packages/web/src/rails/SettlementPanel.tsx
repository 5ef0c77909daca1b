import { Link } from "react-router-dom";
import { linkButtonClass } from "../components/styles";
import { FilesTable } from "../reconciliation/FilesTable";
import { useSettlementFiles } from "../reconciliation/hooks";
import { SETTLEMENT_ADMINS_ONLY, SETTLEMENT_EMPTY } from "./format";
import { useRailsViewer } from "./hooks";
import { Loaded } from "./Loaded";
import { EmptyState, Panel } from "./Panel";

/** How many of the latest files the console's panel lists; the reconciliation console has them all. */
export const SETTLEMENT_FILES_SHOWN = 5;

/**
 * The settlement-files panel (docs/product/payment-rails.md#settlement-files): the latest files with
 * their variance bars and status in the colour bands, and the result CSV, for administrators; the
 * files are admin data, so anyone else reads one sentence saying so.
 */
export function SettlementPanel() {
  const { isAdmin } = useRailsViewer();
  return (
    <Panel title="Settlement files" description="Files each rail settles with, matched against the ledger.">
      {isAdmin ? (
        <LatestFiles />
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-200">{SETTLEMENT_ADMINS_ONLY}</p>
      )}
    </Panel>
  );
}

function LatestFiles() {
  const files = useSettlementFiles({ limit: SETTLEMENT_FILES_SHOWN });
  return (
    <>
      <Loaded query={files} what="the settlement files">
        {(data) => {
          const latest = data.pages[0]?.files ?? [];
          return latest.length === 0 ? (
            <EmptyState title={SETTLEMENT_EMPTY}>
              Files dropped by the rails or uploaded by an admin appear here.
            </EmptyState>
          ) : (
            <FilesTable files={latest} caption="Latest settlement files" compact />
          );
        }}
      </Loaded>
      <p className="mt-3 text-sm">
        <Link to="/reconciliation" className={linkButtonClass}>
          Open the reconciliation console
        </Link>{" "}
        <span className="text-slate-600 dark:text-slate-300">
          to upload a file, resolve breaks and check clearing positions.
        </span>
      </p>
    </>
  );
}

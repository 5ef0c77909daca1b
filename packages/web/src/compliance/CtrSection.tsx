import type { CtrReport } from "@fintech/core/compliance/model";
import { EmptyState, Money } from "../ledger/ui";
import type { Period } from "./api";
import { useCtr } from "./hooks";
import { ReportCard } from "./ReportCard";
import { Table, Loading, Customer, shortIds, tdClass } from "./ReportTable";

/** The currency transaction report: customers whose cash in reached the threshold on a day. */
export function CtrSection({ period }: { period: Period }) {
  const query = useCtr(period);
  return (
    <ReportCard
      id="compliance-ctr"
      title="Currency transaction report"
      description="Cash in (posted deposits) of 10,000 or more per customer per day and currency (the USD equivalent for JPY and INR), added up across the day's deposits."
      exportOf={{ report: "ctr", period }}
    >
      <Loading query={query} what="currency transaction report">
        {(report: CtrReport) =>
          report.rows.length === 0 ? (
            <EmptyState title="No cash at the reporting threshold">
              No customer's deposits reached it on any day.
            </EmptyState>
          ) : (
            <Table caption="Currency transaction report" head={["Day", "Customer", "Total", "Deposits", "Journals"]}>
              {report.rows.map((row) => (
                <tr key={`${row.customer.id}-${row.day}-${row.currency}`}>
                  <td className={`${tdClass} whitespace-nowrap`}>{row.day}</td>
                  <td className={tdClass}>
                    <Customer customer={row.customer} />
                  </td>
                  <td className={tdClass}>
                    <Money minor={row.total_minor} currency={row.currency} />
                  </td>
                  <td className={tdClass}>{row.count}</td>
                  <td className={`${tdClass} font-mono text-xs`} title={row.journal_ids.join(", ")}>
                    {shortIds(row.journal_ids)}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loading>
    </ReportCard>
  );
}

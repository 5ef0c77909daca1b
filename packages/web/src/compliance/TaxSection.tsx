import { COMPLIANCE_MESSAGES, DEFAULT_TAX_RATE, parseTaxRate, type TaxReport } from "@fintech/core/compliance/model";
import { useId, useState, type FormEvent } from "react";
import { inputClass, labelClass, secondaryButtonClass } from "../components/styles";
import { errorTextClass, Money } from "../ledger/ui";
import type { Period } from "./api";
import { useTax } from "./hooks";
import { ReportCard } from "./ReportCard";
import { Table, Loading, tdClass } from "./ReportTable";

/** The tax due on fee and FX revenue in the period, at the rate the reviewer sets. */
export function TaxSection({ period }: { period: Period }) {
  const [rateText, setRateText] = useState(DEFAULT_TAX_RATE);
  const [rate, setRate] = useState(DEFAULT_TAX_RATE);
  const [error, setError] = useState<string | null>(null);
  const query = useTax(period, rate);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parseTaxRate(rateText) === null) {
      setError(COMPLIANCE_MESSAGES.rate);
      return;
    }
    setError(null);
    setRate(rateText.trim());
  };
  return (
    <ReportCard
      id="compliance-tax"
      title="Tax on fee and FX revenue"
      description="Fee revenue and FX revenue posted in the period, per currency, and the tax due on them at the rate below (GST or any configured rate)."
      exportOf={{ report: "tax", period, rate }}
    >
      <form onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3" noValidate>
        <div>
          <label htmlFor={`${id}-rate`} className={labelClass}>
            Tax rate (0 to 1)
          </label>
          <input
            id={`${id}-rate`}
            inputMode="decimal"
            className={inputClass}
            value={rateText}
            onChange={(event) => setRateText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-rate-error` : undefined}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Apply rate
        </button>
        {error && (
          <p id={`${id}-rate-error`} className={errorTextClass}>
            {error}
          </p>
        )}
      </form>
      <Loading query={query} what="tax report">
        {(report: TaxReport) => (
          <Table
            caption={`Tax due at rate ${report.rate}`}
            head={["Currency", "Fee revenue", "FX revenue", "Taxable", `Tax due (${report.rate})`]}
          >
            {report.rows.map((row) => (
              <tr key={row.currency}>
                <td className={`${tdClass} font-medium`}>{row.currency}</td>
                <td className={tdClass}>
                  <Money minor={row.fee_revenue_minor} currency={row.currency} />
                </td>
                <td className={tdClass}>
                  <Money minor={row.fx_revenue_minor} currency={row.currency} />
                </td>
                <td className={tdClass}>
                  <Money minor={row.taxable_minor} currency={row.currency} />
                </td>
                <td className={`${tdClass} font-semibold`}>
                  <Money minor={row.tax_due_minor} currency={row.currency} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </ReportCard>
  );
}

import { randomUUID } from "node:crypto";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { stringify } from "csv-stringify/sync";
import type { CoreContext } from "../shared/context";
import { spreadsheetSafe } from "../shared/spreadsheet";
import { exportObjectKey } from "./keys";
import {
  REPORT_TITLES,
  type CtrReport,
  type ExportInput,
  type ExportReply,
  type SarReport,
  type TaxReport,
} from "./model";
import { renderPdf, type PdfReport } from "./pdf";
import { ctrReport, sarReport, taxReport } from "./reports";

/**
 * Exports (POST /api/v1/compliance/exports): the report made server-side as CSV or PDF, written to
 * the settlements bucket under reports/compliance/ (operator artefacts beside the reconciliation
 * results, away from the KYC bucket whose object events check every new object as an applicant's
 * document), and handed back as a presigned GET that works for EXPORT_LINK_SECONDS.
 */

export const EXPORT_LINK_SECONDS = 300;

type Table = { columns: string[]; rows: (string | number)[][] };
type AnyReport =
  | { report: "ctr"; data: CtrReport }
  | { report: "sar"; data: SarReport }
  | { report: "tax"; data: TaxReport };

export function reportTable(report: AnyReport): Table {
  if (report.report === "ctr")
    return {
      columns: ["day", "customer_id", "customer_name", "customer_email", "currency", "total", "count", "journal_ids"],
      rows: report.data.rows.map((row) => [
        row.day,
        row.customer.id,
        row.customer.name,
        row.customer.email,
        row.currency,
        row.total,
        row.count,
        row.journal_ids.join(" "),
      ]),
    };
  if (report.report === "sar")
    return {
      columns: [
        "rule",
        "window",
        "customer_id",
        "customer_name",
        "customer_email",
        "currency",
        "total",
        "sentence",
        "journal_ids",
        "payment_ids",
        "case_id",
        "case_status",
        "case_reason",
      ],
      rows: report.data.candidates.map((candidate) => [
        candidate.rule,
        candidate.window,
        candidate.customer.id,
        candidate.customer.name,
        candidate.customer.email,
        candidate.currency,
        candidate.total,
        candidate.sentence,
        candidate.journal_ids.join(" "),
        candidate.payment_ids.join(" "),
        candidate.case.id,
        candidate.case.status,
        candidate.case.reason ?? "",
      ]),
    };
  return {
    columns: ["currency", "fee_revenue", "fx_revenue", "taxable", "rate", "tax_due"],
    rows: report.data.rows.map((row) => [
      row.currency,
      row.fee_revenue,
      row.fx_revenue,
      row.taxable,
      report.data.rate,
      row.tax_due,
    ]),
  };
}

export function reportCsv(report: AnyReport): string {
  const table = reportTable(report);
  return stringify(table.rows, { header: true, columns: table.columns, cast: { string: spreadsheetSafe } });
}

function pdfOf(report: AnyReport, createdAt: Date): PdfReport {
  const table = reportTable(report);
  const heading = (row: (string | number)[]) =>
    report.report === "ctr"
      ? `${row[0]} · ${row[2]} · ${row[5]} ${row[4]}`
      : report.report === "sar"
        ? `${row[0]} · ${row[3]} · ${row[1]}`
        : `${row[0]}`;
  return {
    title: REPORT_TITLES[report.report],
    subtitle: `Period ${report.data.from} to ${report.data.to} (UTC), generated ${report.data.generated_at}`,
    summary: [
      report.report === "tax"
        ? `Rate ${report.data.rate}`
        : `${table.rows.length} ${report.report === "ctr" ? "row" : "candidate"}${table.rows.length === 1 ? "" : "s"}`,
    ],
    sections: table.rows.map((row) => ({
      heading: heading(row),
      lines: table.columns.map((column, index) => [column, String(row[index] ?? "")] as [string, string]),
    })),
    createdAt,
  };
}

async function buildReport(ctx: CoreContext, input: ExportInput): Promise<AnyReport> {
  const period = { from: input.from, to: input.to };
  if (input.report === "ctr") return { report: "ctr", data: await ctrReport(ctx, period) };
  if (input.report === "sar") return { report: "sar", data: await sarReport(ctx, period) };
  return { report: "tax", data: await taxReport(ctx, period, input.rate) };
}

export async function exportReport(ctx: CoreContext, input: ExportInput): Promise<ExportReply> {
  const report = await buildReport(ctx, input);
  const now = ctx.clock();
  const filename = `compliance-${input.report}-${input.from}-to-${input.to}.${input.format}`;
  const body = input.format === "csv" ? Buffer.from(reportCsv(report), "utf8") : await renderPdf(pdfOf(report, now));
  const key = exportObjectKey(now.toISOString().slice(0, 10), randomUUID(), filename);
  const client = await ctx.storage.client();
  const bucket = ctx.storage.settlementsBucket;
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: input.format === "csv" ? "text/csv; charset=utf-8" : "application/pdf",
      ContentDisposition: `attachment; filename="${filename}"`,
      ServerSideEncryption: "AES256",
    }),
  );
  const downloadUrl = await getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      // Served as an attachment, so following the link downloads the file instead of leaving the page.
      ResponseContentDisposition: `attachment; filename="${filename}"`,
    }),
    {
      expiresIn: EXPORT_LINK_SECONDS,
    },
  );
  return { downloadUrl, expiresAt: new Date(now.getTime() + EXPORT_LINK_SECONDS * 1000).toISOString(), filename };
}

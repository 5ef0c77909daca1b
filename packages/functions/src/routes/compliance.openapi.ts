import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  CaseAudit,
  CaseUpdateInput,
  ComplianceCase,
  CtrReport,
  DEFAULT_TAX_RATE,
  ExportInput,
  ExportReply,
  MAX_PERIOD_DAYS,
  MAX_REPORT_ITEMS,
  PeriodQuery,
  SarReport,
  TaxQuery,
  TaxReport,
} from "@fintech/core/compliance/model";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, queryParameters, TAGS } from "../http/openapi";

/**
 * The OpenAPI declarations of the compliance routes (compliance.ts): the three reports, a case's
 * status change and the export (docs/money-operations.md#compliance-reports).
 */

const tags = [TAGS.kyc] as [typeof TAGS.kyc];
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";
const PERIOD = `\`from\` and \`to\` are UTC days (YYYY-MM-DD), both included, at most ${MAX_PERIOD_DAYS} days apart; a period holding more than ${MAX_REPORT_ITEMS.toLocaleString("en-US")} deposits or payments is a 422 \`report_too_large\`.`;
const reportErrors = {
  400: ["validation_error"],
  401: true,
  403: ["admin_required"],
  422: ["report_too_large"],
  503: true,
} as const;

const exampleCustomer = { id: "6f1c1b2e-0c55-4a8e-9d7e-1f0b9a2c3d4e", name: "Ada Lovelace", email: "ada@example.com" };
const exampleCase = {
  id: "3b0d6c1e9f2a4b5c8d7e6f5a4b3c2d1e",
  rule: "structuring",
  customer_id: exampleCustomer.id,
  window: "2026-11-27 USD",
  status: "open",
  reason: null,
  version: 1,
  opened_at: "2026-11-28T09:00:00.000Z",
  updated_at: "2026-11-28T09:00:00.000Z",
  updated_by: "system",
};
const period = { from: "2026-11-01", to: "2026-11-28", generated_at: "2026-11-28T09:00:00.000Z" };

export const ctrRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/reports/ctr",
  operationId: "complianceCtrReport",
  summary: "Currency transaction report",
  description: `Cash in (posted deposits) of the threshold or more per customer per UTC day and currency, aggregated across that day's deposits: the customer, day, total, count and the journals behind it. The threshold is 10,000 in USD, EUR and GBP and the USD equivalent in JPY and INR (compliance/rules.ts). ${PERIOD} ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: queryParameters(PeriodQuery),
  responses: {
    200: jsonReply("The report", "ComplianceCtrReply", z.object({ data: CtrReport }), {
      data: {
        ...period,
        threshold: { USD: "10000.00", EUR: "10000.00", GBP: "10000.00", JPY: "1500000", INR: "800000.00" },
        rows: [
          {
            customer: exampleCustomer,
            day: "2026-11-27",
            currency: "USD",
            total: "11000.00",
            total_minor: 1_100_000,
            count: 2,
            journal_ids: ["b1d0c7a4-7a43-4d53-9b25-6fd3a4c1e2f0", "c2e1d8b5-8b54-4e64-8c36-7fe4b5d2f301"],
          },
        ],
      },
    }),
    ...errors(reportErrors),
  },
});

export const sarRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/reports/sar",
  operationId: "complianceSarReport",
  summary: "Suspicious-activity candidates and their cases",
  description: `Candidates from the rules of compliance/rules.ts over the ledger, payments and KYC: structuring (3 or more deposits each between 80 % and 100 % of the threshold within 48 hours), rapid in-and-out (80 % or more of a deposit paid out within 24 hours), high KYC risk with a month's deposits at the threshold, and payments whose payee matched a sanctions list. Each carries a sentence, the journals and payments behind it and its case (one per rule, customer and window: a re-run finds the same case with its status; a candidate seen for the first time opens one). ${PERIOD} ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: queryParameters(PeriodQuery),
  responses: {
    200: jsonReply("The candidates", "ComplianceSarReply", z.object({ data: SarReport }), {
      data: {
        ...period,
        candidates: [
          {
            rule: "structuring",
            rule_label: "Structuring",
            customer: exampleCustomer,
            window: "2026-11-27 USD",
            sentence:
              "3 deposits between 9000.00 USD and 9800.00 USD, each just under the 10000.00 USD reporting threshold, within 48 hours (28200.00 USD in all).",
            currency: "USD",
            total: "28200.00",
            total_minor: 2_820_000,
            journal_ids: ["b1d0c7a4-7a43-4d53-9b25-6fd3a4c1e2f0"],
            payment_ids: [],
            case: exampleCase,
          },
        ],
      },
    }),
    ...errors(reportErrors),
  },
});

export const taxRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/reports/tax",
  operationId: "complianceTaxReport",
  summary: "Tax due on fee and FX revenue",
  description: `Per currency: fee revenue (\`sys-fees-<ccy>\`) and FX revenue (\`sys-fxrevenue-<ccy>\`, zero while the account does not exist) posted in the period, from the accounts' balance versions, and the tax due at \`rate\` (a decimal from 0 to 1, at most 6 decimals; default ${DEFAULT_TAX_RATE}), rounded half away from zero to the minor unit. ${PERIOD} ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: queryParameters(TaxQuery),
  responses: {
    200: jsonReply("The tax due", "ComplianceTaxReply", z.object({ data: TaxReport }), {
      data: {
        ...period,
        rate: "0.18",
        rows: [
          {
            currency: "USD",
            fee_revenue: "120.00",
            fee_revenue_minor: 12_000,
            fx_revenue: "30.00",
            fx_revenue_minor: 3_000,
            taxable: "150.00",
            taxable_minor: 15_000,
            tax_due: "27.00",
            tax_due_minor: 2_700,
          },
        ],
      },
    }),
    ...errors(reportErrors),
  },
});

const CaseReply = z.object({ data: ComplianceCase.extend({ audit: z.array(CaseAudit) }) });

export const updateCaseRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "patch",
  path: "/cases/{id}",
  operationId: "updateComplianceCase",
  summary: "File, dismiss or reopen a case",
  description: `Sets a case's status: \`filed\`, \`dismissed\` (a \`reason\` is required) or \`open\` (reopen). \`version\`, when sent, is the version the administrator saw: a case changed since is a 409 \`case_changed\`, as is a change that lost a race. Setting the status it already has is a 422 \`case_unchanged\`. Every change is audited (who, when, why) and returned in \`audit\`. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [pathParameter("id", "The case id (32 hex characters)", exampleCase.id)],
  request: {
    body: jsonBody("ComplianceCaseUpdate", CaseUpdateInput, {
      status: "dismissed",
      reason: "Payroll deposits",
      version: 1,
    }),
  },
  responses: {
    200: jsonReply("The case as changed, with its audit trail", "ComplianceCaseReply", CaseReply, {
      data: {
        ...exampleCase,
        status: "dismissed",
        reason: "Payroll deposits",
        version: 2,
        updated_by: "admin@example.com",
        audit: [
          { status: "open", reason: null, by: "system", at: "2026-11-28T09:00:00.000Z" },
          { status: "dismissed", reason: "Payroll deposits", by: "admin@example.com", at: "2026-11-28T09:05:00.000Z" },
        ],
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      404: ["case_not_found"],
      409: ["case_changed"],
      422: ["case_unchanged"],
      503: true,
    }),
  },
});

export const exportRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/exports",
  operationId: "exportComplianceReport",
  summary: "Export a report as CSV or PDF",
  description: `Makes the report server-side as CSV or PDF, stores it in the settlements bucket under \`reports/compliance/\` and replies with a presigned GET that works for 5 minutes. \`rate\` applies to the tax report. ${PERIOD} ${ADMIN_ONLY}`,
  "x-complexity": "high",
  request: {
    body: jsonBody("ComplianceExportInput", ExportInput, {
      report: "sar",
      from: "2026-11-01",
      to: "2026-11-28",
      format: "pdf",
    }),
  },
  responses: {
    201: jsonReply("The download link", "ComplianceExportReply", z.object({ data: ExportReply }), {
      data: {
        downloadUrl: "https://settlements.s3.amazonaws.com/reports/compliance/2026-11-28/...",
        expiresAt: "2026-11-28T09:05:00.000Z",
        filename: "compliance-sar-2026-11-01-to-2026-11-28.pdf",
      },
    }),
    ...errors({ ...reportErrors, 400: ["validation_error", "invalid_json"] }),
  },
});

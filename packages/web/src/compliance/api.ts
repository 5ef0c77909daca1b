import {
  ComplianceCase,
  CtrReport,
  ExportReply,
  SarReport,
  TaxReport,
  type CaseUpdateInput,
  type ExportInput,
} from "@fintech/core/compliance/model";
import { z } from "zod";
import { appHttp } from "../api/appClient";
import type { HttpClient } from "../api/client";
import { unwrapData } from "../api/envelope";
import { API_MESSAGES, ApiError } from "../api/errors";
import { segment, withQuery } from "../api/query";

/**
 * The compliance API (docs/money-operations.md#compliance-reports; administrators only, anyone
 * else is answered 403): the three reports over a period, a case's status change and the export.
 * Replies are read through core's schemas, the ones the server writes them with.
 */

const BASE = "/api/v1/compliance";

export interface Period {
  from: string;
  to: string;
}

const CaseWithAudit = ComplianceCase.extend({
  audit: z.array(z.object({ status: z.string(), reason: z.string().nullable(), by: z.string(), at: z.string() })),
});

function parsed<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(unwrapData<unknown>(body));
  if (!result.success) throw new ApiError(`${what}: ${API_MESSAGES.invalidResponse}`, "invalid-response");
  return result.data;
}

export function complianceEndpoints(http: HttpClient) {
  return {
    async ctr(period: Period, signal?: AbortSignal): Promise<CtrReport> {
      const path = withQuery(`${BASE}/reports/ctr`, { ...period });
      return parsed(CtrReport, await http.authCall<unknown>("GET", path, { signal }), "CTR report");
    },
    async sar(period: Period, signal?: AbortSignal): Promise<SarReport> {
      const path = withQuery(`${BASE}/reports/sar`, { ...period });
      return parsed(SarReport, await http.authCall<unknown>("GET", path, { signal }), "SAR candidates");
    },
    async tax(period: Period & { rate?: string }, signal?: AbortSignal): Promise<TaxReport> {
      const path = withQuery(`${BASE}/reports/tax`, { ...period });
      return parsed(TaxReport, await http.authCall<unknown>("GET", path, { signal }), "Tax report");
    },
    /** PATCH /cases/{id} {status, reason?, version}: a case changed meanwhile is a 409. */
    async updateCase(id: string, input: CaseUpdateInput) {
      return parsed(
        CaseWithAudit,
        await http.authCall<unknown>("PATCH", `${BASE}/cases/${segment(id)}`, { body: input }),
        "Case",
      );
    },
    /** POST /exports: the report made on the server, and a link to it that works for 5 minutes. */
    async exportReport(input: ExportInput): Promise<ExportReply> {
      return parsed(ExportReply, await http.authCall<unknown>("POST", `${BASE}/exports`, { body: input }), "Export");
    },
  };
}

export type ComplianceApi = ReturnType<typeof complianceEndpoints>;
export const complianceApi: ComplianceApi = complianceEndpoints(appHttp);

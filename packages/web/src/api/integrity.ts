import { IntegrityJob } from "@fintech/core/ledger/integrity-model";
import { z } from "zod";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { ApiError } from "./errors";
import { segment } from "./query";

/**
 * The whole-ledger integrity check (admins only): start a job, follow it, read the latest. Wire
 * shapes are core's own schemas (ledger/integrity-model is browser-safe), so a reply that does not
 * fit is an error on screen, never a blank panel.
 */

export type { IntegrityJob };

const JOBS = "/api/v1/ledger/integrity/jobs";

const JobReply = z.object({ data: IntegrityJob });
const LatestReply = z.object({ data: IntegrityJob.nullable() });

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new ApiError("Integrity check: the reply is not in the expected format", "invalid-response");
  return result.data;
}

export function integrityEndpoints(http: HttpClient) {
  return {
    /** POST /ledger/integrity/jobs -> 202 {message, data: job}; 409 while another check runs. */
    async start(): Promise<IntegrityJob> {
      return parsed(JobReply, await http.authCall<unknown>("POST", JOBS, { body: {} })).data;
    },
    /** GET /ledger/integrity/jobs/{id}: one check, its progress and, once finished, its result. */
    async get(id: string, signal?: AbortSignal): Promise<IntegrityJob> {
      return parsed(JobReply, await http.authCall<unknown>("GET", `${JOBS}/${segment(id)}`, { signal })).data;
    },
    /** GET /ledger/integrity/jobs/latest: the most recently started check, or null before the first. */
    async latest(signal?: AbortSignal): Promise<IntegrityJob | null> {
      return parsed(LatestReply, await http.authCall<unknown>("GET", `${JOBS}/latest`, { signal })).data;
    },
  };
}

export type IntegrityApi = ReturnType<typeof integrityEndpoints>;

/** Over the app's one client (same origin, the stored session's token, a 401 signs out). */
export const integrityApi: IntegrityApi = integrityEndpoints(appHttp);

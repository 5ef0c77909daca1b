import { OpsOverview } from "@fintech/core/ops/model";
import { appHttp } from "../api/appClient";
import type { HttpClient } from "../api/client";
import { unwrapData } from "../api/envelope";
import { ApiError } from "../api/errors";
import { withQuery } from "../api/query";

/**
 * The ops console's API (docs/money-operations.md#ops-console; administrators only, anyone else is
 * answered 403). The reply is read through core's schema, the one the server writes it with: a
 * mismatch is an error, never a blank table.
 */

export function opsEndpoints(http: HttpClient) {
  return {
    async overview(limit: number, signal?: AbortSignal): Promise<OpsOverview> {
      const body = await http.authCall<unknown>("GET", withQuery("/api/v1/ops/overview", { limit }), { signal });
      const parsed = OpsOverview.safeParse(unwrapData<unknown>(body));
      if (!parsed.success) throw new ApiError("The ops overview is not in the expected format", "invalid-response");
      return parsed.data;
    },
  };
}

export const opsApi = opsEndpoints(appHttp);

import { useQuery } from "@tanstack/react-query";
import { LimitStatus } from "@fintech/core/limits/model";
import { appHttp } from "../api/appClient";
import { ApiError } from "../api/errors";
import { ledgerKeys } from "../ledger/hooks";
import { useSession } from "../session/hooks";

export const LIMITS_PATH = "/api/v1/ledger/limits";

/** GET /api/v1/ledger/limits, read through core's schema: a reply that does not match is an error. */
export async function fetchLimits(signal?: AbortSignal): Promise<LimitStatus> {
  const body = await appHttp.authCall<unknown>("GET", LIMITS_PATH, { signal });
  const parsed = LimitStatus.safeParse((body as { data?: unknown } | null)?.data);
  if (!parsed.success) throw new ApiError("Limits: the reply is not in the expected format", "invalid-response");
  return parsed.data;
}

/**
 * The caller's level and limits. Keyed under the ledger's keys, so every ledger write (a deposit
 * included) refreshes it; the payments screen's writes invalidate it too.
 */
export function useLimits() {
  const userId = useSession()?.user.id ?? "signed-out";
  return useQuery({
    queryKey: [...ledgerKeys.all(userId), "limits"],
    queryFn: ({ signal }) => fetchLimits(signal),
    enabled: userId !== "signed-out",
  });
}

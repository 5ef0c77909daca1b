import { useQuery } from "@tanstack/react-query";
import { ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { appHttp } from "../../api/appClient";
import { OpenApiDocument, buildCatalogue } from "./catalogue";

export const OPENAPI_DOCUMENT_PATH = "/api/openapi.json";
export const RESPONSE_TIMES_PATH = "/api/v1/developers/response-times";

async function getJson(path: string, signal: AbortSignal): Promise<unknown> {
  const reply = await appHttp.raw("GET", path, { signal });
  if (!reply.ok) throw new Error(`${path} answered HTTP ${reply.status}`);
  return reply.body;
}

/** The catalogue, from the API's own OpenAPI document (public, no token). */
export function useCatalogue() {
  return useQuery({
    queryKey: ["developers", "openapi-document"],
    queryFn: async ({ signal }) => buildCatalogue(OpenApiDocument.parse(await getJson(OPENAPI_DOCUMENT_PATH, signal))),
    staleTime: 5 * 60_000,
  });
}

/**
 * Measured response times (public). Optional: while they cannot be had, every endpoint shows the
 * labelled default, so a failure here is not an error on the page.
 */
export function useResponseTimes() {
  return useQuery({
    queryKey: ["developers", "response-times"],
    queryFn: async ({ signal }) => ResponseTimesReport.parse(await getJson(RESPONSE_TIMES_PATH, signal)),
    staleTime: 30_000,
    retry: false,
  });
}

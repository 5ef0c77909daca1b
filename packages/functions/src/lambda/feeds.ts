import { streamHandle } from "hono/aws-lambda";
import { createApp } from "../app";
import { bufferedHandler } from "./buffered";
import { lambdaContext } from "./context";

declare const awslambda: unknown;

const core = await lambdaContext();

/**
 * The same Hono app behind a RESPONSE_STREAM function URL, for the SSE feeds. `awslambda` only
 * exists in the real Lambda runtime (not under `sst dev` or Node), so fall back to buffering.
 * The streaming function's role cannot write the table, so its request metrics stay in memory
 * (see createRequestMetrics) and there is nothing to flush before it freezes.
 */
export const handler: ReturnType<typeof bufferedHandler>["handler"] | ReturnType<typeof streamHandle> =
  typeof awslambda === "undefined" ? bufferedHandler(core).handler : streamHandle(createApp(core));

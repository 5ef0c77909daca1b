import { handle, streamHandle } from "hono/aws-lambda";
import { createFeedsApp } from "../feeds-app";
import { lambdaContext } from "./context";

declare const awslambda: { streamifyResponse?: unknown } | undefined;

const app = createFeedsApp(await lambdaContext());

/**
 * The stream routes behind a RESPONSE_STREAM function URL, for the SSE feeds. The runtime's
 * `awslambda.streamifyResponse` exists only in the real Lambda runtime (not under `sst dev` or
 * Node, where the AWS SDK may still define an `awslambda` object of its own), so without it the
 * app is served buffered. The streaming function's role cannot write the table, so its request
 * metrics stay in memory (see createRequestMetrics) and there is nothing to flush before it freezes.
 */
export const handler: ReturnType<typeof handle> | ReturnType<typeof streamHandle> =
  typeof awslambda?.streamifyResponse === "function" ? streamHandle(app) : handle(app);

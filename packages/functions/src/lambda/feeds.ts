import { handle, streamHandle } from "hono/aws-lambda";
import { createApp } from "../app";
import { lambdaContext } from "./context";

declare const awslambda: unknown;

const app = createApp(await lambdaContext());

/**
 * The same Hono app behind a RESPONSE_STREAM function URL, for the SSE feeds. `awslambda` only
 * exists in the real Lambda runtime (not under `sst dev` or Node), so fall back to buffering.
 */
export const handler: ReturnType<typeof handle> | ReturnType<typeof streamHandle> =
  typeof awslambda === "undefined" ? handle(app) : streamHandle(app);

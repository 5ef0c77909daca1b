import { bufferedHandler } from "./buffered";
import { lambdaContext } from "./context";

/** Buffered API: every route of the Hono app behind CloudFront's /api/*, /v1/*, /health. */
export const { handler } = bufferedHandler(await lambdaContext());

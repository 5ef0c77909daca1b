import { handle } from "hono/aws-lambda";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { createSectionedApp } from "../sectioned-app";

/**
 * The buffered Lambda handler over the API, served section by section (sectioned-app.ts: a cold
 * instance loads only the routes of the requests it gets). A Lambda instance is frozen between
 * invocations and may be reaped without a thaw, so the request metrics are written to the table
 * before each invocation returns (RequestMetrics.flushBeforeFreeze): no timer has to fire for a
 * window to be saved. The write never fails the request; it adds one PutItem to an invocation
 * that recorded something.
 */
export function bufferedHandler(core: CoreContext) {
  const metrics = createRequestMetrics(core);
  const serve = handle(createSectionedApp(core, metrics));
  const handler: typeof serve = async (event, context) => {
    try {
      return await serve(event, context);
    } finally {
      await metrics.flushBeforeFreeze();
    }
  };
  return { handler, metrics };
}

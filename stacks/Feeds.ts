import { FunctionUrlAuthType, InvokeMode } from "aws-cdk-lib/aws-lambda";
import { Function, use, type StackContext } from "sst/constructs";
import { functionAlarms } from "./alarms";
import { Api } from "./Api";
import { imageCheckingFunctionProps } from "./native-modules";
import { Storage } from "./Storage";

/** Lambda's ceiling. The app ends each SSE stream well before it and the client reconnects. */
export const FEEDS_TIMEOUT_SECONDS = 900;

export function Feeds({ stack, app }: StackContext) {
  const storage = use(Storage);
  const { jwtSecret, originEnvironment, alarmTopic } = use(Api);

  const feeds = new Function(stack, "Feeds", {
    handler: "packages/functions/src/lambda/feeds.handler",
    // Same app as the API, so the same native sharp beside the bundle (see Storage.ts).
    ...imageCheckingFunctionProps(app),
    timeout: `${FEEDS_TIMEOUT_SECONDS} seconds`,
    memorySize: "512 MB",
    // The same origin proof as the API: the feeds' function URL is just as reachable directly.
    environment: { ...storage.environment, ...originEnvironment },
    bind: [jwtSecret],
  });

  const url = feeds.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    // Under `sst dev` the function is SST's live-lambda bridge, which answers buffered (the
    // entry point falls back to `handle` there), so stream only in deployed stages.
    invokeMode: app.mode === "dev" ? InvokeMode.BUFFERED : InvokeMode.RESPONSE_STREAM,
  });

  // Feeds only read the outbox.
  storage.table.cdk.table.grantReadData(feeds);

  functionAlarms(stack, "Feeds", feeds, alarmTopic);

  stack.addOutputs({ FeedsFunctionUrl: url.url });

  return { feeds, url };
}

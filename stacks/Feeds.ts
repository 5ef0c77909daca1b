import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { FunctionUrlAuthType, InvokeMode } from "aws-cdk-lib/aws-lambda";
import { Function as SstFunction, use, type StackContext } from "sst/constructs";
import { FEEDS_FUNCTION } from "../infra/stage";
import { STREAM_LEASE_PREFIX } from "../packages/core/src/events/keys";
import { Alerts } from "./Alerts";
import { functionAlarms } from "./alarms";
import { Api } from "./Api";
import { deploySettings } from "./settings";
import { Storage } from "./Storage";

/** Lambda's ceiling. The app ends each SSE stream well before it and the client reconnects. */
export const FEEDS_TIMEOUT_SECONDS = 900;

/**
 * What the feeds may do to their stream slot leases (packages/core/src/events/stream-leases.ts),
 * the only items they write.
 */
export const STREAM_LEASE_WRITE_ACTIONS = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"] as const;

export function Feeds({ stack, app }: StackContext) {
  const storage = use(Storage);
  const { keySecrets, originEnvironment } = use(Api);
  const { alarmTopic } = use(Alerts);
  const settings = deploySettings(app.stage);

  const feeds = new SstFunction(stack, "Feeds", {
    handler: "packages/functions/src/lambda/feeds.handler",
    timeout: `${FEEDS_TIMEOUT_SECONDS} seconds`,
    // Sized for an I/O-bound stream (infra/stage.ts), which bench:feeds prices.
    memorySize: `${FEEDS_FUNCTION.memoryMB} MB`,
    // The ceiling: open streams can never take the executions the API and the worker need.
    reservedConcurrentExecutions: settings.concurrency.reserved.feeds ?? undefined,
    // The same origin proof as the API: the feeds' function URL is just as reachable directly.
    environment: { ...storage.environment, ...originEnvironment },
    // Sessions, tickets and cursors, API keys: not the identity-number key, which streams never use.
    bind: [keySecrets.session, keySecrets.cursor, keySecrets.apiKeyHash],
  });

  const url = feeds.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    // Under `sst dev` the function is SST's live-lambda bridge, which answers buffered (the
    // entry point falls back to `handle` there), so stream only in deployed stages.
    invokeMode: app.mode === "dev" ? InvokeMode.BUFFERED : InvokeMode.RESPONSE_STREAM,
  });

  // Feeds read the outbox, and write only their own stream slot leases: IAM checks the
  // partition key of every put, update and delete against the prefix.
  const table = storage.table.cdk.table;
  table.grantReadData(feeds);
  feeds.attachPermissions([
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...STREAM_LEASE_WRITE_ACTIONS],
      resources: [table.tableArn],
      conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [`${STREAM_LEASE_PREFIX}*`] } },
    }),
  ]);

  functionAlarms(stack, "Feeds", feeds, alarmTopic, { url: true });

  stack.addOutputs({ FeedsFunctionUrl: url.url });

  return { feeds, url };
}

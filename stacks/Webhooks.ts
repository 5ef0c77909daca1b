import { Duration } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { FilterCriteria, FilterRule, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Function as SstFunction, type Config, type Stack } from "sst/constructs";
import { schedules } from "../infra/resources";
import { WEBHOOK_DISPATCHER_MAX_CONCURRENCY, type StageSettings } from "../infra/stage";
import { kycFeedPartition } from "../packages/core/src/kyc/keys";
import { SYSTEM_OWNER } from "../packages/core/src/ledger/keys";
import { paymentFeedPartition } from "../packages/core/src/payments/keys";
import { MAX_DELAY_SECONDS, WEBHOOK_QUEUE_URL_VARIABLE } from "../packages/functions/src/lambda/webhook-queue";
import { ALARM_PERIOD_MINUTES, functionAlarms, queueAgeAlarm, Watch } from "./alarms";
import { deadLetterQueue } from "./queues";

/**
 * Webhook delivery in the cloud (docs/webhooks.md#running-the-dispatcher), never in an API request.
 *
 * - WebhookFanout reads the table's stream, filtered by Lambda to the INSERTs of user feed outbox
 *   items (a customer's balance versions, KYC and payment history items; not the system
 *   accounts' or the admins' ops feed), and sends one `{ownerId}` message per owner of the batch
 *   who has an enabled endpoint to the WebhookDispatch queue.
 * - WebhookDispatcher consumes that queue: for an owner it records the owner's new deliveries from
 *   each endpoint's durable cursors (core dispatchOwner) and makes their due attempts; a retry due
 *   within SQS's 15 minutes goes back on the queue as a delayed `{endpointId, deliveryId}` message,
 *   a later one waits for the sweep. Its reserved concurrency is a floor that keeps deliveries
 *   flowing and a cap that keeps a flood of them off the API (infra/stage.ts).
 * - WebhookSweeper, every minute (infra/resources/schedules.ts), enqueues every owner with an
 *   enabled endpoint: the safety net for a lost stream record or message, and what brings retries
 *   scheduled hours ahead back. The dispatcher does the work, under its reservation.
 *
 * The cursors, not the stream, decide what is delivered: a message only says when to look, so a
 * duplicate or a lost one changes nothing but the delay.
 */

export const WEBHOOK_FANOUT_TIMEOUT_SECONDS = 30;
/** An owner's attempts run side by side, each bounded by DELIVERY_TIMEOUT_MS (15 s). */
export const WEBHOOK_DISPATCHER_TIMEOUT_SECONDS = 60;
export const WEBHOOK_SWEEPER_TIMEOUT_SECONDS = 60;
/** AWS's advice for an SQS event source: visibility at least six times the function timeout. */
export const WEBHOOK_DISPATCH_VISIBILITY_SECONDS = 6 * WEBHOOK_DISPATCHER_TIMEOUT_SECONDS;
/** A message that failed this many receives is moved to the dead-letter queue (and alarms). */
export const WEBHOOK_DISPATCH_MAX_RECEIVES = 5;
export const WEBHOOK_DISPATCHER_BATCH_SIZE = 10;
export const WEBHOOK_DLQ_RETENTION_DAYS = 14;
export { WEBHOOK_DISPATCHER_MAX_CONCURRENCY };
/** Stream records per fanout invocation, gathered for up to a second: one message per owner per batch. */
export const WEBHOOK_FANOUT_BATCH_SIZE = 100;
export const WEBHOOK_FANOUT_BATCHING_WINDOW_SECONDS = 1;
/** A batch the fanout keeps failing on is dropped after this many retries; the sweep covers its owners. */
export const WEBHOOK_FANOUT_RETRY_ATTEMPTS = 3;
/** The fanout trails the stream by more than this (ms): it is failing or throttled. */
export const WEBHOOK_FANOUT_ITERATOR_AGE_MS = 60_000;
/** What the fanout and the sweeper may do with the queue: send, nothing else. */
export const WEBHOOK_QUEUE_SEND_ACTIONS = ["sqs:SendMessage"] as const;

/** Partition prefixes of the user feeds whose outbox items the stream filter lets through. */
export const KYC_FEED_PREFIX = kycFeedPartition("");
export const PAYMENT_FEED_PREFIX = paymentFeedPartition("");
/** A customer's ledger outbox item: a balance version whose owner is not the system's accounts. */
export const LEDGER_OUTBOX_ENTITY = "balance";

/** The stream filter: INSERTs of user feed outbox items, one pattern per feed (Lambda ORs them). */
export function userFeedInsertFilters() {
  const inserted = (image: Record<string, unknown>) =>
    FilterCriteria.filter({ eventName: FilterRule.isEqual("INSERT"), dynamodb: { NewImage: image } });
  return [
    inserted({
      entity: { S: FilterRule.isEqual(LEDGER_OUTBOX_ENTITY) },
      owner_id: { S: FilterRule.notEquals(SYSTEM_OWNER) },
    }),
    inserted({ gsi2pk: { S: FilterRule.beginsWith(KYC_FEED_PREFIX) } }),
    inserted({ gsi2pk: { S: FilterRule.beginsWith(PAYMENT_FEED_PREFIX) } }),
  ];
}

export interface WebhookDeliveryProps {
  table: ITable;
  /** Storage's names (TABLE_NAME, buckets) and where mail links lead (the owner of a disabled endpoint is told). */
  environment: Record<string, string>;
  /** The keyring that decrypts endpoint secrets (WEBHOOK_SECRET_KEYS): the dispatcher's alone. */
  signingKeys: Config.Secret;
  alarmTopic: ITopic;
  settings: StageSettings;
}

export function webhookDelivery(
  stack: Stack,
  { table, environment, signingKeys, alarmTopic, settings }: WebhookDeliveryProps,
) {
  const deadLetters = deadLetterQueue(stack, "WebhookDeadLetters", {
    retentionDays: WEBHOOK_DLQ_RETENTION_DAYS,
    retain: settings.retainData,
    topic: alarmTopic,
    what: "webhook dispatch messages that kept failing",
  });
  const queue = new Queue(stack, "WebhookDispatch", {
    visibilityTimeout: Duration.seconds(WEBHOOK_DISPATCH_VISIBILITY_SECONDS),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: WEBHOOK_DISPATCH_MAX_RECEIVES },
  });
  const queueEnvironment = { [WEBHOOK_QUEUE_URL_VARIABLE]: queue.queueUrl };
  const sendMessages = () =>
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...WEBHOOK_QUEUE_SEND_ACTIONS],
      resources: [queue.queueArn],
    });

  // Reads only: which owners have an enabled endpoint. The event source grants the stream reads.
  const fanout = new SstFunction(stack, "WebhookFanout", {
    handler: "packages/functions/src/lambda/webhook-fanout.handler",
    timeout: `${WEBHOOK_FANOUT_TIMEOUT_SECONDS} seconds`,
    memorySize: "256 MB",
    environment: { ...environment, ...queueEnvironment },
  });
  fanout.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.LATEST,
      batchSize: WEBHOOK_FANOUT_BATCH_SIZE,
      maxBatchingWindow: Duration.seconds(WEBHOOK_FANOUT_BATCHING_WINDOW_SECONDS),
      retryAttempts: WEBHOOK_FANOUT_RETRY_ATTEMPTS,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      filters: userFeedInsertFilters(),
    }),
  );
  table.grantReadData(fanout);
  fanout.attachPermissions([sendMessages()]);

  const dispatcher = new SstFunction(stack, "WebhookDispatcher", {
    handler: "packages/functions/src/lambda/webhook-dispatcher.handler",
    timeout: `${WEBHOOK_DISPATCHER_TIMEOUT_SECONDS} seconds`,
    memorySize: "512 MB",
    reservedConcurrentExecutions: settings.concurrency.reserved.webhookDispatcher ?? undefined,
    environment: { ...environment, ...queueEnvironment },
    bind: [signingKeys],
  });
  // The event source grants the receive side on this queue; failed records alone are retried.
  dispatcher.addEventSource(
    new SqsEventSource(queue, {
      batchSize: WEBHOOK_DISPATCHER_BATCH_SIZE,
      reportBatchItemFailures: true,
      maxConcurrency: WEBHOOK_DISPATCHER_MAX_CONCURRENCY,
    }),
  );
  // Cursors, deliveries, attempts, endpoint status and the owner's mail: all in the table.
  table.grantReadWriteData(dispatcher);
  dispatcher.attachPermissions([sendMessages()]);

  const sweeper = new SstFunction(stack, "WebhookSweeper", {
    handler: "packages/functions/src/lambda/webhook-sweeper.handler",
    timeout: `${WEBHOOK_SWEEPER_TIMEOUT_SECONDS} seconds`,
    memorySize: "256 MB",
    environment: { ...environment, ...queueEnvironment },
  });
  table.grantReadData(sweeper);
  sweeper.attachPermissions([sendMessages()]);
  const schedule = schedules.webhookSweeper;
  new Rule(stack, `${schedule.id}Schedule`, {
    description: schedule.description,
    schedule: Schedule.expression(schedule.cron),
    // A missed tick is not retried: the next one, a minute later, does the same work.
    targets: [new LambdaFunction(sweeper, { retryAttempts: 0 })],
  });

  functionAlarms(stack, "WebhookFanout", fanout, alarmTopic, { timeoutSeconds: WEBHOOK_FANOUT_TIMEOUT_SECONDS });
  functionAlarms(stack, "WebhookDispatcher", dispatcher, alarmTopic, {
    timeoutSeconds: WEBHOOK_DISPATCHER_TIMEOUT_SECONDS,
  });
  functionAlarms(stack, "WebhookSweeper", sweeper, alarmTopic, { timeoutSeconds: WEBHOOK_SWEEPER_TIMEOUT_SECONDS });
  // Retries are sent with a delay of up to SQS's 15 minutes; older than that plus a margin, the dispatcher is behind.
  queueAgeAlarm(stack, "WebhookDispatch", queue, alarmTopic, { maxDelaySeconds: MAX_DELAY_SECONDS });
  const streamWatch = new Watch(stack, "WebhookFanoutStreamAlarms", "Webhook fanout (table stream)", alarmTopic);
  streamWatch.alarm("IteratorAge", {
    description: `the fanout trails the table's stream by more than ${WEBHOOK_FANOUT_ITERATOR_AGE_MS / 1000} s`,
    metric: fanout.metric("IteratorAge", { period: Duration.minutes(ALARM_PERIOD_MINUTES), statistic: "Maximum" }),
    label: "Iterator age (ms)",
    threshold: WEBHOOK_FANOUT_ITERATOR_AGE_MS,
    axis: "right",
  });

  return { queue, deadLetters, fanout, dispatcher, sweeper, queueEnvironment };
}

import { Duration } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { FilterPattern, LogGroup, MetricFilter } from "aws-cdk-lib/aws-logs";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Function as SstFunction, type Stack } from "sst/constructs";
import { schedules } from "../infra/resources";
import { PAYMENT_WORKER_MAX_CONCURRENCY, type StageSettings } from "../infra/stage";
import { DUE_PARTITION_PREFIX } from "../packages/core/src/payments/keys";
import { PAYMENT_PARKED_LOG_MESSAGE } from "../packages/core/src/payments/model";
import { MAX_DELAY_SECONDS } from "../packages/functions/src/lambda/payment-queue";
import { ALARM_PERIOD_MINUTES, functionAlarms, queueAgeAlarm, Watch } from "./alarms";
import { deadLetterQueue } from "./queues";

/**
 * The payment lifecycle's driver in the cloud. Each payment step the service commits is followed
 * by a delayed message on the PaymentSteps queue (the API's SqsPaymentScheduler); the
 * PaymentWorker function consumes it, runs the step under a lease on its due marker
 * (core payments/runner.ts: a second delivery while the lease is held does nothing) and sends the
 * next step's message. SQS delays at most 15 minutes: a message for a later step is sent again on
 * arrival with the remaining delay. A step whose message was lost is found by the PaymentSweeper,
 * run every minute by EventBridge over the sharded due markers (no scan), which claims each
 * overdue marker before re-sending it and waits longer before each further re-send, so a backlog
 * is not multiplied. A step that keeps failing is parked for review (its hold released) instead
 * of looping. docs/cloud.md#payment-steps-under-backlog has the reasoning.
 */

export const PAYMENT_WORKER_TIMEOUT_SECONDS = 30;
export const PAYMENT_SWEEPER_TIMEOUT_SECONDS = 60;
/** AWS's advice for an SQS event source: visibility at least six times the function timeout. */
export const PAYMENT_STEP_VISIBILITY_SECONDS = 6 * PAYMENT_WORKER_TIMEOUT_SECONDS;
/** A message that failed this many receives is moved to the dead-letter queue (and alarms). */
export const PAYMENT_STEP_MAX_RECEIVES = 5;
/**
 * Messages per invocation; concurrent invocations: PAYMENT_WORKER_MAX_CONCURRENCY (infra/stage.ts,
 * sized with the reservations).
 */
export const PAYMENT_WORKER_BATCH_SIZE = 10;
export { PAYMENT_WORKER_MAX_CONCURRENCY };
export const PAYMENT_DLQ_RETENTION_DAYS = 14;
/** What the API and the sweeper may do with the queue: send, nothing else (no receive, delete or purge). */
export const PAYMENT_QUEUE_SEND_ACTIONS = ["sqs:SendMessage"] as const;
/** The sweeper's only table write: claiming a due marker (partition key PAYDUE#...) before it re-sends the step. */
export const SWEEPER_TABLE_WRITE_ACTIONS = ["dynamodb:UpdateItem"] as const;
/** The environment variable naming the queue (packages/functions/src/lambda/payment-queue.ts reads it). */
export const PAYMENT_QUEUE_URL_VARIABLE = "PAYMENT_QUEUE_URL";

export interface PaymentWorkerProps {
  table: ITable;
  /** Storage's names (TABLE_NAME, buckets) as every function reads them. */
  environment: Record<string, string>;
  alarmTopic: ITopic;
  settings: StageSettings;
}

export function paymentWorker(stack: Stack, { table, environment, alarmTopic, settings }: PaymentWorkerProps) {
  const deadLetters = deadLetterQueue(stack, "PaymentStepDeadLetters", {
    retentionDays: PAYMENT_DLQ_RETENTION_DAYS,
    retain: settings.retainData,
    topic: alarmTopic,
    what: "payment steps that kept failing",
  });
  const queue = new Queue(stack, "PaymentSteps", {
    visibilityTimeout: Duration.seconds(PAYMENT_STEP_VISIBILITY_SECONDS),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: PAYMENT_STEP_MAX_RECEIVES },
  });

  const queueEnvironment = { [PAYMENT_QUEUE_URL_VARIABLE]: queue.queueUrl };
  const sendSteps = () =>
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...PAYMENT_QUEUE_SEND_ACTIONS],
      resources: [queue.queueArn],
    });

  const worker = new SstFunction(stack, "PaymentWorker", {
    handler: "packages/functions/src/lambda/payment-worker.handler",
    timeout: `${PAYMENT_WORKER_TIMEOUT_SECONDS} seconds`,
    memorySize: "512 MB",
    // A floor the feeds cannot take (infra/stage.ts); at least the event source's maxConcurrency.
    reservedConcurrentExecutions: settings.concurrency.reserved.paymentWorker ?? undefined,
    environment: { ...environment, ...queueEnvironment },
  });
  // The event source grants the receive side (ReceiveMessage, DeleteMessage, ChangeMessageVisibility,
  // GetQueueAttributes) on this queue; failed records alone are retried (ReportBatchItemFailures).
  worker.addEventSource(
    new SqsEventSource(queue, {
      batchSize: PAYMENT_WORKER_BATCH_SIZE,
      reportBatchItemFailures: true,
      maxConcurrency: PAYMENT_WORKER_MAX_CONCURRENCY,
    }),
  );
  table.grantReadWriteData(worker);
  worker.attachPermissions([sendSteps()]);

  // The sweeper reads the due markers, claims the overdue ones (a conditional update on the marker,
  // so a backlog is not re-sent every minute) and enqueues them; the worker does every other write.
  const sweeper = new SstFunction(stack, "PaymentSweeper", {
    handler: "packages/functions/src/lambda/payment-sweeper.handler",
    timeout: `${PAYMENT_SWEEPER_TIMEOUT_SECONDS} seconds`,
    memorySize: "256 MB",
    environment: { ...environment, ...queueEnvironment },
  });
  table.grantReadData(sweeper);
  sweeper.attachPermissions([
    sendSteps(),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...SWEEPER_TABLE_WRITE_ACTIONS],
      resources: [table.tableArn],
      conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [`${DUE_PARTITION_PREFIX}*`] } },
    }),
  ]);
  const schedule = schedules.paymentSweeper;
  new Rule(stack, `${schedule.id}Schedule`, {
    description: schedule.description,
    schedule: Schedule.expression(schedule.cron),
    // A missed tick is not retried: the next one, a minute later, does the same work.
    targets: [new LambdaFunction(sweeper, { retryAttempts: 0 })],
  });

  functionAlarms(stack, "PaymentWorker", worker, alarmTopic, { timeoutSeconds: PAYMENT_WORKER_TIMEOUT_SECONDS });
  functionAlarms(stack, "PaymentSweeper", sweeper, alarmTopic, { timeoutSeconds: PAYMENT_SWEEPER_TIMEOUT_SECONDS });
  // Steps are sent with a delay of up to SQS's 15 minutes; older than that plus a margin, the worker is behind.
  queueAgeAlarm(stack, "PaymentSteps", queue, alarmTopic, { maxDelaySeconds: MAX_DELAY_SECONDS });
  parkedPaymentsAlarm(stack, worker, alarmTopic);

  return { queue, deadLetters, worker, sweeper, queueEnvironment, sendSteps };
}

/** The custom metric the worker's parking log lines become (namespace per stage, so stages never mix). */
export const PARKED_PAYMENTS_METRIC = "PaymentsParked";
export const parkedPaymentsNamespace = (stage: string) => `fintech-platform/${stage}`;

/**
 * A parked payment is a step that failed MAX_STEP_FAILURES times: a bug or an outage someone has to
 * look at, and its payer is waiting. The worker logs one JSON line per parking with a fixed message;
 * a metric filter on its log group counts them, and one is enough to alarm.
 */
function parkedPaymentsAlarm(stack: Stack, worker: SstFunction, topic: ITopic): Watch {
  const logGroup = LogGroup.fromLogGroupName(stack, "PaymentWorkerLogs", `/aws/lambda/${worker.functionName}`);
  const filter = new MetricFilter(stack, "PaymentsParkedFilter", {
    logGroup,
    filterPattern: FilterPattern.stringValue("$.message", "=", PAYMENT_PARKED_LOG_MESSAGE),
    metricNamespace: parkedPaymentsNamespace(stack.stage),
    metricName: PARKED_PAYMENTS_METRIC,
    metricValue: "1",
  });
  // The log group is made by the function's log-retention resource: the filter waits for it.
  filter.node.addDependency(worker);
  const watch = new Watch(stack, "PaymentsParkedAlarms", "Payments parked for review", topic);
  watch.alarm("Parked", {
    description:
      "a payment step failed too often and its payment was parked (hold released); see GET /v1/payments/parked",
    metric: filter.metric({ period: Duration.minutes(ALARM_PERIOD_MINUTES), statistic: "Sum" }),
    label: "Parked payments",
    threshold: 1,
  });
  return watch;
}

import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { Topic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Function, type Stack } from "sst/constructs";
import { schedules } from "../infra/spec";

/**
 * The payment lifecycle's driver in the cloud (issue 12, contract §3). Each payment step the
 * service commits is followed by a delayed message on the PaymentSteps queue (the API's
 * SqsPaymentScheduler); the PaymentWorker function consumes it, runs advancePayment and sends the
 * next step's message. SQS delays at most 15 minutes: a message for a later step is sent again
 * on arrival with the remaining delay. A step whose message was lost (a crash between the commit
 * and the send, a failed send) is found by the PaymentSweeper, run every minute by EventBridge
 * over duePayments (sharded due markers, no scan), which enqueues it again. advancePayment is
 * idempotent and decides outcomes deterministically, so a duplicate message never completes a
 * payment twice. The README (Payments > Worker) has the reasoning.
 */

export const PAYMENT_WORKER_TIMEOUT_SECONDS = 30;
export const PAYMENT_SWEEPER_TIMEOUT_SECONDS = 60;
/** AWS's advice for an SQS event source: visibility at least six times the function timeout. */
export const PAYMENT_STEP_VISIBILITY_SECONDS = 6 * PAYMENT_WORKER_TIMEOUT_SECONDS;
/** A message that failed this many receives is moved to the dead-letter queue (and alarms). */
export const PAYMENT_STEP_MAX_RECEIVES = 5;
/** Messages per invocation, and at most this many concurrent worker invocations (bounds the table's write rate). */
export const PAYMENT_WORKER_BATCH_SIZE = 10;
export const PAYMENT_WORKER_MAX_CONCURRENCY = 10;
export const PAYMENT_DLQ_RETENTION_DAYS = 14;
/** What the API and the sweeper may do with the queue: send, nothing else (no receive, delete or purge). */
export const PAYMENT_QUEUE_SEND_ACTIONS = ["sqs:SendMessage"] as const;
/** The environment variable naming the queue (packages/functions/src/lambda/payment-queue.ts reads it). */
export const PAYMENT_QUEUE_URL_VARIABLE = "PAYMENT_QUEUE_URL";

export interface PaymentWorkerProps {
  table: ITable;
  /** Storage's names (TABLE_NAME, buckets) as every function reads them. */
  environment: Record<string, string>;
  alarmTopic: Topic;
}

export function paymentWorker(stack: Stack, { table, environment, alarmTopic }: PaymentWorkerProps) {
  const deadLetters = new Queue(stack, "PaymentStepDeadLetters", {
    retentionPeriod: Duration.days(PAYMENT_DLQ_RETENTION_DAYS),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new Queue(stack, "PaymentSteps", {
    visibilityTimeout: Duration.seconds(PAYMENT_STEP_VISIBILITY_SECONDS),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: PAYMENT_STEP_MAX_RECEIVES },
  });

  const queueEnvironment = { [PAYMENT_QUEUE_URL_VARIABLE]: queue.queueUrl };
  const sendSteps = () =>
    new PolicyStatement({ effect: Effect.ALLOW, actions: [...PAYMENT_QUEUE_SEND_ACTIONS], resources: [queue.queueArn] });

  const worker = new Function(stack, "PaymentWorker", {
    handler: "packages/functions/src/lambda/payment-worker.handler",
    timeout: `${PAYMENT_WORKER_TIMEOUT_SECONDS} seconds`,
    memorySize: "512 MB",
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

  // The sweeper only reads (the due markers) and enqueues; the worker does every write.
  const sweeper = new Function(stack, "PaymentSweeper", {
    handler: "packages/functions/src/lambda/payment-sweeper.handler",
    timeout: `${PAYMENT_SWEEPER_TIMEOUT_SECONDS} seconds`,
    memorySize: "256 MB",
    environment: { ...environment, ...queueEnvironment },
  });
  table.grantReadData(sweeper);
  sweeper.attachPermissions([sendSteps()]);
  const schedule = schedules.paymentSweeper;
  new Rule(stack, `${schedule.id}Schedule`, {
    description: schedule.description,
    schedule: Schedule.expression(schedule.cron),
    // A missed tick is not retried: the next one, a minute later, does the same work.
    targets: [new LambdaFunction(sweeper, { retryAttempts: 0 })],
  });

  // A message in the dead-letter queue is a step that kept failing: someone should look.
  new Alarm(stack, "PaymentStepDeadLettersAlarm", {
    alarmDescription: "Payment steps failed repeatedly and were moved to the dead-letter queue",
    metric: deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: "Maximum" }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  }).addAlarmAction(new SnsAction(alarmTopic));

  return { queue, deadLetters, worker, sweeper, queueEnvironment, sendSteps };
}

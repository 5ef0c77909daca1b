import { Duration } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Function as SstFunction, type Stack } from "sst/constructs";
import type { StageSettings } from "../infra/stage";
import { functionAlarms, queueAgeAlarm } from "./alarms";
import { deadLetterQueue } from "./queues";

/**
 * The whole-ledger integrity check's driver in the cloud
 * (docs/cloud.md#the-ledger-integrity-check-as-a-job). An admin's start (the API) writes the job
 * and sends its id to the IntegrityJobs queue; the IntegrityWorker function runs the job a page at
 * a time (packages/core/src/ledger/integrity-steps.ts) until its invocation is nearly out of time,
 * then sends the id again, so no request and no invocation ever holds the whole ledger. Each step
 * is idempotent (conditional on the job's step number), so a duplicate or redelivered message costs
 * a read and counts nothing twice. A message that keeps failing goes to the dead-letter queue
 * (alarmed); its job is then failed by its own step failures, or replaced by the next start once it
 * has made no progress for ten minutes.
 */

export const INTEGRITY_WORKER_TIMEOUT_SECONDS = 120;
/** AWS's advice for an SQS event source: visibility at least six times the function timeout. */
export const INTEGRITY_JOB_VISIBILITY_SECONDS = 6 * INTEGRITY_WORKER_TIMEOUT_SECONDS;
/** A message that failed this many receives is moved to the dead-letter queue. */
export const INTEGRITY_JOB_MAX_RECEIVES = 5;
export const INTEGRITY_DLQ_RETENTION_DAYS = 14;
/**
 * One job runs at a time (the ledger's claim), each message carries all of it: one message per
 * invocation, and SQS's smallest concurrency ceiling (2), so a duplicate message never fans out.
 */
export const INTEGRITY_WORKER_BATCH_SIZE = 1;
export const INTEGRITY_WORKER_MAX_CONCURRENCY = 2;
/** The longest delay a message is sent with: a failed step's retry (integrity-steps.ts, at most a minute). */
export const INTEGRITY_MAX_DELAY_SECONDS = 60;
/** What the API may do with the queue: send, nothing else. */
export const INTEGRITY_QUEUE_SEND_ACTIONS = ["sqs:SendMessage"] as const;
/** The environment variable naming the queue (packages/functions/src/lambda/integrity-queue.ts reads it). */
export const INTEGRITY_QUEUE_URL_VARIABLE = "INTEGRITY_QUEUE_URL";

export interface IntegrityJobsProps {
  table: ITable;
  /** Storage's names (TABLE_NAME, buckets) as every function reads them. */
  environment: Record<string, string>;
  alarmTopic: ITopic;
  settings: StageSettings;
}

export function integrityJobs(stack: Stack, { table, environment, alarmTopic, settings }: IntegrityJobsProps) {
  const deadLetters = deadLetterQueue(stack, "IntegrityJobDeadLetters", {
    retentionDays: INTEGRITY_DLQ_RETENTION_DAYS,
    retain: settings.retainData,
    topic: alarmTopic,
    what: "integrity check messages that kept failing",
  });
  const queue = new Queue(stack, "IntegrityJobs", {
    visibilityTimeout: Duration.seconds(INTEGRITY_JOB_VISIBILITY_SECONDS),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: INTEGRITY_JOB_MAX_RECEIVES },
  });

  const queueEnvironment = { [INTEGRITY_QUEUE_URL_VARIABLE]: queue.queueUrl };
  const sendJobs = () =>
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...INTEGRITY_QUEUE_SEND_ACTIONS],
      resources: [queue.queueArn],
    });

  const worker = new SstFunction(stack, "IntegrityWorker", {
    handler: "packages/functions/src/lambda/integrity-worker.handler",
    timeout: `${INTEGRITY_WORKER_TIMEOUT_SECONDS} seconds`,
    memorySize: "512 MB",
    environment: { ...environment, ...queueEnvironment },
  });
  // The event source grants the receive side (ReceiveMessage, DeleteMessage, ChangeMessageVisibility,
  // GetQueueAttributes) on this queue; a failed record alone is retried (ReportBatchItemFailures).
  worker.addEventSource(
    new SqsEventSource(queue, {
      batchSize: INTEGRITY_WORKER_BATCH_SIZE,
      reportBatchItemFailures: true,
      maxConcurrency: INTEGRITY_WORKER_MAX_CONCURRENCY,
    }),
  );
  // The worker reads the whole table (the scan, balances by time) and writes only its own items
  // (INTEGRITY#...: the job, the claim, the per-account sums). IAM could narrow the writes with a
  // dynamodb:LeadingKeys condition, which nothing here can prove works with TransactWriteItems
  // offline; the data-plane grant on this table and its indexes is the one used, as for the
  // payment worker.
  table.grantReadWriteData(worker);
  worker.attachPermissions([sendJobs()]);

  // Errors and throttles; no p99 alarm: an invocation runs steps until it is nearly out of time on purpose.
  functionAlarms(stack, "IntegrityWorker", worker, alarmTopic);
  queueAgeAlarm(stack, "IntegrityJobs", queue, alarmTopic, { maxDelaySeconds: INTEGRITY_MAX_DELAY_SECONDS });

  return { queue, deadLetters, worker, queueEnvironment, sendJobs };
}

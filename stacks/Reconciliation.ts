import { Duration } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import {
  AccountRootPrincipal,
  ArnPrincipal,
  Effect,
  PolicyStatement,
  Role,
  type IPrincipal,
} from "aws-cdk-lib/aws-iam";
import { FilterPattern, LogGroup, MetricFilter } from "aws-cdk-lib/aws-logs";
import { EventType, type IBucket } from "aws-cdk-lib/aws-s3";
import { LambdaDestination } from "aws-cdk-lib/aws-s3-notifications";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Function as SstFunction, type Stack } from "sst/constructs";
import { schedules, settlementsBucket } from "../infra/resources";
import type { StageSettings } from "../infra/stage";
import {
  MISSING_FILE_LOG_MESSAGE,
  MISSING_FILE_METRIC,
  REJECTED_FILE_LOG_MESSAGE,
  REJECTED_FILE_METRIC,
  RESULTS_PREFIX,
} from "../packages/core/src/reconciliation/model";
import { ALARM_PERIOD_MINUTES, functionAlarms, Watch } from "./alarms";
import { deadLetterQueue } from "./queues";

/**
 * Settlement reconciliation in the cloud (docs/money-operations.md#reconciliation-screens-and-cloud-wiring).
 * A file put under the settlements bucket's incoming prefix (by the rail's processor, through the
 * SettlementProcessor role, or by an admin's presigned POST from the console) raises
 * ObjectCreated, which runs SettlementObjectCreated: it reads the file as a stream, reconciles it
 * (idempotent per object version, so S3's retries and a second delivery do nothing) and writes
 * the per-line result CSV under the results prefix. Every night EventBridge runs
 * NightlyReconciliation, which reconciles what arrived without an event and raises a
 * missing-file break per expected file that did not arrive. Each missing file, and each file
 * rejected whole (not CSV, another header, no lines, a second file for a reconciled day), is
 * logged with a fixed message that a metric filter counts and alarms on.
 *
 * The object handler lives in the Storage stack with the bucket (a notification naming a function
 * of a later stack would make the two stacks depend on each other); the schedule lives in the Api
 * stack with the other schedules.
 */

/** A 200,000-line file reconciles in well under a minute; the rest is headroom for a cold table. */
export const SETTLEMENT_OBJECT_TIMEOUT_SECONDS = 300;
export const NIGHTLY_RECONCILIATION_TIMEOUT_SECONDS = 600;
/** How long an object event the function kept failing on is kept for a replay. */
export const SETTLEMENT_OBJECT_FAILURE_RETENTION_DAYS = 14;

/** The objects a reconciliation reads and the results it writes; nothing is ever deleted or overwritten in place. */
export const RECONCILER_READ_ACTIONS = ["s3:GetObject", "s3:GetObjectVersion"] as const;
export const RECONCILER_WRITE_ACTIONS = ["s3:PutObject"] as const;
/** The nightly run lists the incoming prefix to find what arrived; listing is a bucket-level action. */
export const RECONCILER_LIST_ACTIONS = ["s3:ListBucket"] as const;
/** The processor role may only drop files: put under the incoming prefix, nothing else. */
export const PROCESSOR_ACTIONS = ["s3:PutObject"] as const;
/**
 * The API: presigned POSTs into incoming/ (signed with its own role), result downloads from
 * results/, and what an administrator's "run the nightly check now" needs (POST
 * /api/v1/reconciliation/nightly reconciles a file no event reconciled): read incoming files and
 * write their results, as the reconcilers do.
 */
export const API_SETTLEMENT_INCOMING_ACTIONS = ["s3:PutObject", ...RECONCILER_READ_ACTIONS] as const;
export const API_SETTLEMENT_RESULT_ACTIONS = ["s3:GetObject", ...RECONCILER_WRITE_ACTIONS] as const;

/** Namespace of the custom metrics, per stage so stages never mix. */
export const reconciliationNamespace = (stage: string) => `fintech-platform/${stage}`;
/** One missing file is enough: the day cannot be closed without it. */
export const MISSING_FILES_THRESHOLD = 1;
/** One rejected file is enough: its day stays open until the processor sends a good one. */
export const REJECTED_FILES_THRESHOLD = 1;

const incomingObjects = (bucket: IBucket) => bucket.arnForObjects(`${settlementsBucket.incomingPrefix}*`);
const resultObjects = (bucket: IBucket) => bucket.arnForObjects(`${RESULTS_PREFIX}*`);

interface ReconcilerProps {
  table: ITable;
  bucket: IBucket;
  /** Storage's names (TABLE_NAME, buckets) as every function reads them. */
  environment: Record<string, string>;
  alarmTopic: ITopic;
  settings: StageSettings;
}

/** What every reconciling function may do: read incoming files, write results, read and write the table. */
function grantReconciler(fn: SstFunction, table: ITable, bucket: IBucket, { list }: { list: boolean }) {
  table.grantReadWriteData(fn);
  fn.attachPermissions([
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...RECONCILER_READ_ACTIONS],
      resources: [incomingObjects(bucket)],
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...RECONCILER_WRITE_ACTIONS],
      resources: [resultObjects(bucket)],
    }),
    ...(list
      ? [
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: [...RECONCILER_LIST_ACTIONS],
            resources: [bucket.bucketArn],
            conditions: { StringLike: { "s3:prefix": [`${settlementsBucket.incomingPrefix}*`] } },
          }),
        ]
      : []),
  ]);
}

/**
 * ObjectCreated (any way: a processor's put, a multipart completion, a presigned POST) under the
 * incoming prefix, .csv only, starts the reconciliation of that object version. S3 invokes
 * asynchronously and retries; what still fails lands in a dead-letter queue that alarms.
 */
export function settlementObjectHandler(
  stack: Stack,
  { table, bucket, environment, alarmTopic, settings }: ReconcilerProps,
) {
  const failures = deadLetterQueue(stack, "SettlementObjectCreatedFailures", {
    retentionDays: SETTLEMENT_OBJECT_FAILURE_RETENTION_DAYS,
    retain: settings.retainData,
    topic: alarmTopic,
    what: "settlement files whose reconciliation kept failing",
  });
  const fn = new SstFunction(stack, "SettlementObjectCreated", {
    handler: "packages/functions/src/lambda/settlement-object.handler",
    timeout: `${SETTLEMENT_OBJECT_TIMEOUT_SECONDS} seconds`,
    // The parse streams (memory stays bounded); memory also buys CPU on Lambda.
    memorySize: "1024 MB",
    environment,
    deadLetterQueue: failures,
  });
  grantReconciler(fn, table, bucket, { list: false });
  bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(fn), {
    prefix: settlementsBucket.incomingPrefix,
    suffix: settlementsBucket.incomingSuffix,
  });
  functionAlarms(stack, "SettlementObjectCreated", fn, alarmTopic, {
    timeoutSeconds: SETTLEMENT_OBJECT_TIMEOUT_SECONDS,
  });
  const rejected = loggedCountAlarm(stack, fn, alarmTopic, {
    id: "SettlementFileRejected",
    title: "Settlement files rejected",
    alarm: "Rejected",
    message: REJECTED_FILE_LOG_MESSAGE,
    metric: REJECTED_FILE_METRIC,
    threshold: REJECTED_FILES_THRESHOLD,
    description:
      "a settlement file was rejected whole and nothing was booked; the file and the reason are on /reconciliation (GET /api/v1/reconciliation/files?status=error)",
    label: "Rejected settlement files",
  });
  return { settlementObjectFunction: fn, settlementObjectFailures: failures, rejectedFiles: rejected };
}

/**
 * Who may assume the processor role: the principal the stage names (the processor's account or
 * role ARN), or else the stage's own account, so an operator can drop a file by hand.
 */
export function processorPrincipal(settings: Pick<StageSettings, "settlementProcessorPrincipal">): IPrincipal {
  return settings.settlementProcessorPrincipal
    ? new ArnPrincipal(settings.settlementProcessorPrincipal)
    : new AccountRootPrincipal();
}

/** The role a rail's processor assumes to deliver settlement files: s3:PutObject under incoming/, nothing else. */
export function settlementProcessorRole(stack: Stack, bucket: IBucket, settings: StageSettings): Role {
  const role = new Role(stack, "SettlementProcessor", {
    description: `${settings.stage}: delivers settlement files into the settlements bucket's incoming prefix`,
    assumedBy: processorPrincipal(settings),
    maxSessionDuration: Duration.hours(1),
  });
  role.addToPolicy(
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...PROCESSOR_ACTIONS],
      resources: [incomingObjects(bucket)],
    }),
  );
  return role;
}

/** The API's settlement grants: presigned uploads into incoming/ and result downloads from results/. */
export function apiSettlementStatements(bucket: IBucket): PolicyStatement[] {
  return [
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...API_SETTLEMENT_INCOMING_ACTIONS],
      resources: [incomingObjects(bucket)],
    }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...API_SETTLEMENT_RESULT_ACTIONS],
      resources: [resultObjects(bucket)],
    }),
  ];
}

/**
 * The nightly run (infra/resources/schedules.ts nightlyReconciliation): reconciles the day's
 * files no event reconciled and raises a missing-file break for each expected file that did not
 * arrive. A missed tick is retried by EventBridge; the run is idempotent.
 */
export function nightlyReconciliation(
  stack: Stack,
  { table, bucket, environment, alarmTopic }: Omit<ReconcilerProps, "settings">,
) {
  const fn = new SstFunction(stack, "NightlyReconciliation", {
    handler: "packages/functions/src/lambda/nightly-reconciliation.handler",
    timeout: `${NIGHTLY_RECONCILIATION_TIMEOUT_SECONDS} seconds`,
    memorySize: "1024 MB",
    environment,
  });
  grantReconciler(fn, table, bucket, { list: true });
  const schedule = schedules.nightlyReconciliation;
  const rule = new Rule(stack, `${schedule.id}Schedule`, {
    description: schedule.description,
    schedule: Schedule.expression(schedule.cron),
    targets: [new LambdaFunction(fn, { retryAttempts: 2 })],
  });
  functionAlarms(stack, "NightlyReconciliation", fn, alarmTopic, {
    timeoutSeconds: NIGHTLY_RECONCILIATION_TIMEOUT_SECONDS,
  });
  const missing = loggedCountAlarm(stack, fn, alarmTopic, {
    id: "SettlementFileMissing",
    title: "Settlement files missing",
    alarm: "Missing",
    message: MISSING_FILE_LOG_MESSAGE,
    metric: MISSING_FILE_METRIC,
    threshold: MISSING_FILES_THRESHOLD,
    description:
      "an expected settlement file did not arrive; see the missing_file breaks on /reconciliation (GET /api/v1/reconciliation/breaks?class=missing_file)",
    label: "Missing settlement files",
  });
  return { nightlyFunction: fn, nightlyRule: rule, missingFiles: missing };
}

interface LoggedCount {
  /** Prefix of the construct ids: <id>Filter, <id>Alarms, <id>Logs. */
  id: string;
  title: string;
  /** The alarm's name within its Watch. */
  alarm: string;
  /** The fixed `message` of the structured log line counted. */
  message: string;
  metric: string;
  threshold: number;
  description: string;
  label: string;
}

/**
 * An alarm on a count of one fixed log message of `fn`: a metric filter on its log group counts
 * the lines, and `threshold` of them in a period alarm.
 */
function loggedCountAlarm(stack: Stack, fn: SstFunction, topic: ITopic, counted: LoggedCount): Watch {
  const logGroup = LogGroup.fromLogGroupName(stack, `${counted.id}Logs`, `/aws/lambda/${fn.functionName}`);
  const filter = new MetricFilter(stack, `${counted.id}Filter`, {
    logGroup,
    filterPattern: FilterPattern.stringValue("$.message", "=", counted.message),
    metricNamespace: reconciliationNamespace(stack.stage),
    metricName: counted.metric,
    metricValue: "1",
  });
  // The log group is made by the function's log-retention resource: the filter waits for it.
  filter.node.addDependency(fn);
  const watch = new Watch(stack, `${counted.id}Alarms`, counted.title, topic);
  watch.alarm(counted.alarm, {
    description: counted.description,
    metric: filter.metric({ period: Duration.minutes(ALARM_PERIOD_MINUTES), statistic: "Sum" }),
    label: counted.label,
    threshold: counted.threshold,
  });
  return watch;
}

import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct, type IConstruct } from "constructs";

/**
 * Alarm thresholds, in one place so the stack tests and the docs state the same numbers.
 * Every alarm treats missing data as fine: most of these metrics are only published when
 * something happens.
 */
export const ALARM_PERIOD_MINUTES = 5;
/** 5xx answers of a function URL in one period: a handful is a bug or an outage, not noise. */
export const FIVE_XX_PER_PERIOD = 5;
/** Lambda `Errors`: the handler threw, timed out or crashed (the app answers its own errors, so any is unexpected). */
export const ERRORS_PER_PERIOD = 1;
/** Any throttle means an invocation was refused for lack of concurrency. */
export const THROTTLES_PER_PERIOD = 1;
/** p99 duration, as a share of the function's timeout, for two periods in a row. */
export const DURATION_P99_SHARE_OF_TIMEOUT = 0.6;
/** Messages in a dead-letter queue: each one is work that kept failing. */
export const DEAD_LETTERS_VISIBLE = 1;
/**
 * How long past its longest intended delay a queue's oldest message may wait. A delayed
 * message already counts its delay in its age, so a queue's threshold is its delay plus this.
 */
export const QUEUE_AGE_BEYOND_DELAY_SECONDS = 300;
/** DynamoDB read or write throttle events in one period, of the table or of one index. */
export const TABLE_THROTTLE_EVENTS_PER_PERIOD = 1;
/** Account-wide Lambda executions in use, as a share of the account's concurrency limit. */
export const ACCOUNT_CONCURRENCY_SHARE = 0.8;
/** CloudFront 5xx responses, percent of requests, averaged over a period, for this many periods in a row. */
export const CLOUDFRONT_5XX_RATE_PERCENT = 5;
export const CLOUDFRONT_5XX_PERIODS = 2;
/** Failed AWS Backup jobs of a vault in one period. */
export const BACKUP_JOBS_FAILED = 1;

/** CloudFront publishes its metrics in us-east-1 only, under Region=Global. */
export const CLOUDFRONT_METRICS_REGION = "us-east-1";

const period = () => Duration.minutes(ALARM_PERIOD_MINUTES);

export interface WatchedMetric {
  metric: IMetric;
  /** Counts go on the left axis; durations and ages, which would flatten them, on the right. */
  axis: "left" | "right";
  alarm?: Alarm;
}

interface AlarmOptions {
  description: string;
  /** The alarm's metric, unlabelled: a labelled one would render the alarm as metric math. */
  metric: Metric;
  /** Its name in the graph's legend. */
  label: string;
  threshold: number;
  evaluationPeriods?: number;
  axis?: "left" | "right";
}

/**
 * One thing the stage watches (a function, a queue, the table or one index...): its alarms,
 * all notifying the stage's topic, and the graph that shows them together on the stage's
 * dashboard (stacks/Dashboard.ts finds every Watch in the app). Anything a stack adds is
 * watched by creating a Watch for it, through the helpers below or directly.
 */
export class Watch extends Construct {
  readonly metrics: WatchedMetric[] = [];

  constructor(
    scope: Construct,
    id: string,
    readonly title: string,
    private readonly topic: ITopic,
  ) {
    super(scope, id);
  }

  get alarms(): Alarm[] {
    return this.metrics.flatMap(({ alarm }) => (alarm ? [alarm] : []));
  }

  /** An alarm at or above `threshold`, notifying the topic, and its line on the graph. */
  alarm(
    id: string,
    { description, metric, label, threshold, evaluationPeriods = 1, axis = "left" }: AlarmOptions,
  ): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: `${this.title}: ${description}`,
      metric,
      threshold,
      evaluationPeriods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.metrics.push({ metric: metric.with({ label }), axis, alarm });
    return alarm;
  }

  /** A line on the graph without an alarm. */
  show(metric: IMetric, axis: "left" | "right" = "left"): this {
    this.metrics.push({ metric, axis });
    return this;
  }
}

/** Every Watch in the app (or under any construct), in construction order. */
export function watchesIn(root: IConstruct): Watch[] {
  return root.node.findAll().filter((construct): construct is Watch => construct instanceof Watch);
}

export interface FunctionAlarmOptions {
  /** A function URL's function: also its `Url5xxCount` (the app's own 500s, which Lambda's `Errors` never sees). */
  url?: boolean;
  /** Also alarm when p99 duration nears this timeout. Streams get none: a long stream is their normal case. */
  timeoutSeconds?: number;
}

/**
 * Errors and throttles of one function (every function gets both), plus 5xx for a function URL
 * and slow p99 when a timeout is given. `Errors` catches what the app could not answer: an
 * import that fails at start, a timeout, a crash, an event handler that threw.
 */
export function functionAlarms(
  scope: Construct,
  id: string,
  fn: IFunction,
  topic: ITopic,
  { url = false, timeoutSeconds }: FunctionAlarmOptions = {},
): Watch {
  const watch = new Watch(scope, `${id}Alarms`, `Function ${id}`, topic);
  watch.alarm("Errors", {
    description: `${ERRORS_PER_PERIOD}+ failed invocations (threw, timed out or crashed) in ${ALARM_PERIOD_MINUTES} minutes`,
    metric: fn.metricErrors({ period: period(), statistic: "Sum" }),
    label: "Errors",
    threshold: ERRORS_PER_PERIOD,
  });
  watch.alarm("Throttles", {
    description: "invocations throttled (concurrency exhausted)",
    metric: fn.metricThrottles({ period: period(), statistic: "Sum" }),
    label: "Throttles",
    threshold: THROTTLES_PER_PERIOD,
  });
  if (url) {
    watch.alarm("5xx", {
      description: `${FIVE_XX_PER_PERIOD}+ 5xx replies in ${ALARM_PERIOD_MINUTES} minutes`,
      metric: fn.metric("Url5xxCount", { period: period(), statistic: "Sum" }),
      label: "5xx replies",
      threshold: FIVE_XX_PER_PERIOD,
    });
  }
  if (timeoutSeconds !== undefined) {
    watch.alarm("Duration", {
      description: `p99 duration above ${DURATION_P99_SHARE_OF_TIMEOUT * 100}% of the ${timeoutSeconds} s timeout`,
      metric: fn.metricDuration({ period: period(), statistic: "p99" }),
      label: "p99 duration (ms)",
      threshold: timeoutSeconds * 1000 * DURATION_P99_SHARE_OF_TIMEOUT,
      evaluationPeriods: 2,
      axis: "right",
    });
  }
  return watch;
}

/** Depth of a dead-letter queue (a redrive target or a function's failure destination). */
export function deadLetterAlarm(scope: Construct, id: string, queue: IQueue, topic: ITopic, what: string): Watch {
  const watch = new Watch(scope, `${id}Alarms`, `Dead letters ${id}`, topic);
  watch.alarm("Depth", {
    description: `${what}: messages waiting in the dead-letter queue`,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: period(), statistic: "Maximum" }),
    label: "Messages",
    threshold: DEAD_LETTERS_VISIBLE,
  });
  return watch;
}

/** Age of a queue's oldest message: the consumer is behind, stopped or failing. */
export function queueAgeAlarm(
  scope: Construct,
  id: string,
  queue: IQueue,
  topic: ITopic,
  { maxDelaySeconds }: { maxDelaySeconds: number },
): Watch {
  const threshold = maxDelaySeconds + QUEUE_AGE_BEYOND_DELAY_SECONDS;
  const watch = new Watch(scope, `${id}AgeAlarms`, `Queue ${id}`, topic);
  watch.alarm("OldestMessage", {
    description: `oldest message older than ${threshold} s (its delay of up to ${maxDelaySeconds} s plus ${QUEUE_AGE_BEYOND_DELAY_SECONDS} s)`,
    metric: queue.metricApproximateAgeOfOldestMessage({ period: period(), statistic: "Maximum" }),
    label: "Oldest message (s)",
    threshold,
    axis: "right",
  });
  watch.show(
    queue.metricApproximateNumberOfMessagesVisible({ period: period(), statistic: "Maximum", label: "Visible" }),
  );
  return watch;
}

/** Read and write throttles of the table and of each global index, one Watch each. */
export function tableThrottleAlarms(
  scope: Construct,
  id: string,
  table: ITable,
  indexNames: readonly string[],
  topic: ITopic,
): Watch[] {
  const targets = [
    { suffix: "", title: `DynamoDB table ${id}`, dimensions: { TableName: table.tableName } },
    ...indexNames.map((index) => ({
      suffix: index,
      title: `DynamoDB index ${id}/${index}`,
      dimensions: { TableName: table.tableName, GlobalSecondaryIndexName: index },
    })),
  ];
  return targets.map(({ suffix, title, dimensions }) => {
    const watch = new Watch(scope, `${id}${suffix}ThrottleAlarms`, title, topic);
    for (const kind of ["Read", "Write"] as const) {
      watch.alarm(`${kind}Throttles`, {
        description: `${kind.toLowerCase()} requests throttled`,
        metric: new Metric({
          namespace: "AWS/DynamoDB",
          metricName: `${kind}ThrottleEvents`,
          dimensionsMap: dimensions,
          period: period(),
          statistic: "Sum",
        }),
        label: `${kind} throttles`,
        threshold: TABLE_THROTTLE_EVENTS_PER_PERIOD,
      });
    }
    return watch;
  });
}

/** Lambda executions in use across the whole account and region, against its limit. */
export function accountConcurrencyAlarm(scope: Construct, topic: ITopic, accountLimit: number): Watch {
  const threshold = Math.ceil(accountLimit * ACCOUNT_CONCURRENCY_SHARE);
  const watch = new Watch(scope, "AccountConcurrencyAlarms", "Lambda concurrency (account)", topic);
  watch.alarm("InUse", {
    description: `${threshold} or more executions at once, ${ACCOUNT_CONCURRENCY_SHARE * 100}% of the account's ${accountLimit}`,
    metric: new Metric({
      namespace: "AWS/Lambda",
      metricName: "ConcurrentExecutions",
      period: period(),
      statistic: "Maximum",
    }),
    label: "Concurrent executions",
    threshold,
  });
  return watch;
}

/**
 * CloudFront's 5xx rate. Its metrics live in us-east-1 only, and an alarm must be in the
 * metric's region: a stage elsewhere gets the graph (dashboards read across regions) and no alarm.
 */
export function cloudFrontErrorRateAlarm(
  scope: Construct,
  distributionId: string,
  topic: ITopic,
  { alarm }: { alarm: boolean },
): Watch {
  const watch = new Watch(scope, "CloudFrontAlarms", "CloudFront", topic);
  const metric = new Metric({
    namespace: "AWS/CloudFront",
    metricName: "5xxErrorRate",
    dimensionsMap: { DistributionId: distributionId, Region: "Global" },
    region: CLOUDFRONT_METRICS_REGION,
    period: period(),
    statistic: "Average",
  });
  const label = "5xx rate (%)";
  if (alarm) {
    watch.alarm("5xxRate", {
      description: `${CLOUDFRONT_5XX_RATE_PERCENT}%+ of requests answered 5xx for ${CLOUDFRONT_5XX_PERIODS * ALARM_PERIOD_MINUTES} minutes`,
      metric,
      label,
      threshold: CLOUDFRONT_5XX_RATE_PERCENT,
      evaluationPeriods: CLOUDFRONT_5XX_PERIODS,
    });
  } else {
    watch.show(metric.with({ label }));
  }
  return watch;
}

/** Backup jobs into a vault that failed. */
export function backupFailureAlarm(scope: Construct, vaultName: string, topic: ITopic): Watch {
  const watch = new Watch(scope, "BackupAlarms", "Table backups", topic);
  watch.alarm("JobsFailed", {
    description: "a backup job failed",
    metric: new Metric({
      namespace: "AWS/Backup",
      metricName: "NumberOfBackupJobsFailed",
      dimensionsMap: { BackupVaultName: vaultName },
      period: period(),
      statistic: "Sum",
    }),
    label: "Failed jobs",
    threshold: BACKUP_JOBS_FAILED,
  });
  return watch;
}

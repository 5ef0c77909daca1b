import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { Topic } from "aws-cdk-lib/aws-sns";
import type { Function } from "sst/constructs";
import type { Construct } from "constructs";

/** Alarm thresholds, in one place so the stack tests and the README state the same numbers. */
export const ALARM_PERIOD_MINUTES = 5;
/** 5xx answers of the function URL in one period: a handful is a bug or an outage, not noise. */
export const FIVE_XX_PER_PERIOD = 5;
/** Any throttle means requests were refused for lack of concurrency. */
export const THROTTLES_PER_PERIOD = 1;
/** p99 duration, as a share of the function's timeout, for two periods in a row. */
export const DURATION_P99_SHARE_OF_TIMEOUT = 0.6;

/**
 * 5xx, throttles and (with `timeoutSeconds`) slow p99 of one function, each notifying `topic`.
 * Function URL 5xx come from `Url5xxCount` (the app answers its own errors, so Lambda's
 * `Errors` stays at zero for them); throttles and duration from the function's own metrics.
 * Streaming functions get no duration alarm: a long stream is their normal case.
 */
export function functionAlarms(
  scope: Construct,
  id: string,
  fn: Function,
  topic: Topic,
  { timeoutSeconds }: { timeoutSeconds?: number } = {},
) {
  const period = Duration.minutes(ALARM_PERIOD_MINUTES);
  const metric = (metricName: string, statistic: string) =>
    new Metric({ namespace: "AWS/Lambda", metricName, dimensionsMap: { FunctionName: fn.functionName }, statistic, period });
  const alarms = [
    new Alarm(scope, `${id}5xx`, {
      alarmDescription: `${id}: ${FIVE_XX_PER_PERIOD}+ 5xx replies in ${ALARM_PERIOD_MINUTES} minutes`,
      metric: metric("Url5xxCount", "Sum"),
      threshold: FIVE_XX_PER_PERIOD,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }),
    new Alarm(scope, `${id}Throttles`, {
      alarmDescription: `${id}: invocations throttled`,
      metric: metric("Throttles", "Sum"),
      threshold: THROTTLES_PER_PERIOD,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }),
  ];
  if (timeoutSeconds !== undefined) {
    alarms.push(new Alarm(scope, `${id}Duration`, {
      alarmDescription: `${id}: p99 duration above ${DURATION_P99_SHARE_OF_TIMEOUT * 100}% of the ${timeoutSeconds} s timeout`,
      metric: metric("Duration", "p99"),
      threshold: timeoutSeconds * 1000 * DURATION_P99_SHARE_OF_TIMEOUT,
      evaluationPeriods: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }));
  }
  for (const alarm of alarms) alarm.addAlarmAction(new SnsAction(topic));
  return alarms;
}

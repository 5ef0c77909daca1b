import {
  actionsOf,
  environmentOf,
  resourceOf,
  resourcesOf,
  statementsFor,
  synth,
  type SynthesizedApp,
} from "./testing";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { schedules } from "../infra/resources";
import { LAMBDA_MIN_UNRESERVED, WEBHOOK_DISPATCHER_MAX_CONCURRENCY } from "../infra/stage";
import { KEY_SECRET_NAMES, KEY_SECRETS } from "../packages/core/src/shared/secret-names";
import { WEBHOOK_QUEUE_URL_VARIABLE } from "../packages/functions/src/lambda/webhook-queue";
import { DEAD_LETTERS_VISIBLE, QUEUE_AGE_BEYOND_DELAY_SECONDS } from "./alarms";
import { Api } from "./Api";
import { deploySettings } from "./settings";
import {
  KYC_FEED_PREFIX,
  LEDGER_OUTBOX_ENTITY,
  PAYMENT_FEED_PREFIX,
  WEBHOOK_DISPATCH_MAX_RECEIVES,
  WEBHOOK_DISPATCH_VISIBILITY_SECONDS,
  WEBHOOK_DISPATCHER_BATCH_SIZE,
  WEBHOOK_DISPATCHER_TIMEOUT_SECONDS,
  WEBHOOK_DLQ_RETENTION_DAYS,
  WEBHOOK_FANOUT_ITERATOR_AGE_MS,
  WEBHOOK_QUEUE_SEND_ACTIONS,
} from "./Webhooks";

/**
 * Webhook delivery's cloud wiring (stacks/Webhooks.ts) as the real app synthesises it: the stream
 * mapping and its filter, the queue and its dead letters, the schedule, the reserved concurrency,
 * the alarms, log retention and each function's grants (no S3, sends on the one queue, the
 * signing keyring on the dispatcher alone).
 */

const SYNTH_TIMEOUT_MS = 300_000;
const FUNCTIONS = {
  WebhookFanout: "packages/functions/src/lambda/webhook-fanout.handler",
  WebhookDispatcher: "packages/functions/src/lambda/webhook-dispatcher.handler",
  WebhookSweeper: "packages/functions/src/lambda/webhook-sweeper.handler",
} as const;
type FunctionId = keyof typeof FUNCTIONS;
const FUNCTION_IDS = Object.keys(FUNCTIONS) as FunctionId[];

interface Mapping {
  FunctionName: unknown;
  EventSourceArn: unknown;
  StartingPosition?: string;
  BatchSize?: number;
  BisectBatchOnFunctionError?: boolean;
  FunctionResponseTypes?: string[];
  FilterCriteria?: { Filters: { Pattern: string }[] };
  ScalingConfig?: { MaximumConcurrency: number };
}

const mappingsOf = (template: Template, functionLogicalId: string): Mapping[] =>
  Object.values(template.findResources("AWS::Lambda::EventSourceMapping"))
    .map((mapping) => mapping.Properties as Mapping)
    .filter((mapping) => JSON.stringify(mapping.FunctionName) === JSON.stringify({ Ref: functionLogicalId }));

const alarmsOf = (template: Template) =>
  Object.values(template.findResources("AWS::CloudWatch::Alarm")).map(
    (alarm) => alarm.Properties as Record<string, unknown> & { Dimensions?: { Name: string; Value: unknown }[] },
  );

describe.each([
  { stage: "pr-42", production: false },
  { stage: "production", production: true },
])("webhook delivery on stage $stage", ({ stage, production }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
  }, SYNTH_TIMEOUT_MS);

  const template = () => built.template(Api);
  const fn = (id: FunctionId) => resourceOf(template(), "AWS::Lambda::Function", id);
  const queue = () => resourceOf(template(), "AWS::SQS::Queue", "WebhookDispatch");
  const deadLetters = () => resourceOf(template(), "AWS::SQS::Queue", "WebhookDeadLetters");
  const settings = () => deploySettings(stage, {});
  const alarmsOn = (dimension: string, value: unknown) =>
    alarmsOf(template()).filter((alarm) =>
      (alarm.Dimensions ?? []).some(
        (entry) => entry.Name === dimension && JSON.stringify(entry.Value) === JSON.stringify(value),
      ),
    );

  it("runs each handler on nodejs22.x with the stage's log retention", () => {
    for (const id of FUNCTION_IDS) {
      expect(fn(id).Properties, id).toMatchObject({ Handler: FUNCTIONS[id], Runtime: "nodejs22.x" });
      template().hasResourceProperties("Custom::LogRetention", {
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: fn(id).id }]] },
        RetentionInDays: settings().logRetentionDays,
      });
      expect(environmentOf(template(), id)[WEBHOOK_QUEUE_URL_VARIABLE], id).toEqual({ Ref: queue().id });
    }
  });

  it("fans out only INSERTs of user feed outbox items from the table's stream, from the newest record", () => {
    const [mapping, ...others] = mappingsOf(template(), fn("WebhookFanout").id);
    expect(others).toEqual([]);
    expect(JSON.stringify(mapping!.EventSourceArn)).toContain("StreamArn");
    expect(mapping).toMatchObject({
      StartingPosition: "LATEST",
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    const patterns = mapping!.FilterCriteria!.Filters.map((filter) => JSON.parse(filter.Pattern));
    expect(patterns).toEqual([
      {
        eventName: ["INSERT"],
        dynamodb: {
          NewImage: { entity: { S: [LEDGER_OUTBOX_ENTITY] }, owner_id: { S: [{ "anything-but": ["system"] }] } },
        },
      },
      { eventName: ["INSERT"], dynamodb: { NewImage: { gsi2pk: { S: [{ prefix: "FEED#kyc#" }] } } } },
      { eventName: ["INSERT"], dynamodb: { NewImage: { gsi2pk: { S: [{ prefix: "FEED#payment#" }] } } } },
    ]);
    expect([KYC_FEED_PREFIX, PAYMENT_FEED_PREFIX]).toEqual(["FEED#kyc#", "FEED#payment#"]);
    // Lambda takes at most five filters per mapping; the ops feed and the system accounts' are not among these.
    expect(patterns.length).toBeLessThanOrEqual(5);
    expect(JSON.stringify(patterns)).not.toContain("FEED#ops#");
  });

  it("has an encrypted, TLS-only dispatch queue whose failing messages go to a dead-letter queue that alarms", () => {
    expect(queue().Properties).toMatchObject({
      VisibilityTimeout: WEBHOOK_DISPATCH_VISIBILITY_SECONDS,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { "Fn::GetAtt": [deadLetters().id, "Arn"] },
        maxReceiveCount: WEBHOOK_DISPATCH_MAX_RECEIVES,
      },
    });
    expect(WEBHOOK_DISPATCH_VISIBILITY_SECONDS).toBeGreaterThanOrEqual(6 * WEBHOOK_DISPATCHER_TIMEOUT_SECONDS);
    expect(deadLetters().Properties).toMatchObject({
      MessageRetentionPeriod: WEBHOOK_DLQ_RETENTION_DAYS * 86_400,
      SqsManagedSseEnabled: true,
    });
    expect(deadLetters().DeletionPolicy).toBe(production ? "Retain" : "Delete");
    const queueName = (id: string) => ({ "Fn::GetAtt": [id, "QueueName"] });
    expect(alarmsOn("QueueName", queueName(deadLetters().id))).toEqual([
      expect.objectContaining({ MetricName: "ApproximateNumberOfMessagesVisible", Threshold: DEAD_LETTERS_VISIBLE }),
    ]);
    expect(alarmsOn("QueueName", queueName(queue().id))).toEqual([
      expect.objectContaining({
        MetricName: "ApproximateAgeOfOldestMessage",
        Threshold: 900 + QUEUE_AGE_BEYOND_DELAY_SECONDS,
      }),
    ]);
  });

  it("alarms on each function's errors, and on the fanout trailing the stream", () => {
    for (const id of FUNCTION_IDS) {
      const metrics = alarmsOn("FunctionName", { Ref: fn(id).id }).map((alarm) => alarm.MetricName);
      expect(metrics, id).toEqual(expect.arrayContaining(["Errors", "Throttles", "Duration"]));
    }
    expect(
      alarmsOn("FunctionName", { Ref: fn("WebhookFanout").id }).find((alarm) => alarm.MetricName === "IteratorAge"),
    ).toMatchObject({ Threshold: WEBHOOK_FANOUT_ITERATOR_AGE_MS, Statistic: "Maximum" });
  });

  it("consumes the queue in the dispatcher with partial batch failures, within its reserved concurrency", () => {
    const dispatcher = fn("WebhookDispatcher");
    const [mapping, ...others] = mappingsOf(template(), dispatcher.id);
    expect(others).toEqual([]);
    expect(mapping).toMatchObject({
      EventSourceArn: { "Fn::GetAtt": [queue().id, "Arn"] },
      BatchSize: WEBHOOK_DISPATCHER_BATCH_SIZE,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      ScalingConfig: { MaximumConcurrency: WEBHOOK_DISPATCHER_MAX_CONCURRENCY },
    });
    const { concurrency } = settings();
    expect(dispatcher.Properties!.ReservedConcurrentExecutions).toBe(
      concurrency.reserved.webhookDispatcher ?? undefined,
    );
    if (!production) return;
    // A floor no smaller than what the pollers invoke, and the account's budget still leaves AWS's minimum.
    expect(dispatcher.Properties!.ReservedConcurrentExecutions).toBeGreaterThanOrEqual(
      WEBHOOK_DISPATCHER_MAX_CONCURRENCY,
    );
    const reserved = Object.values(concurrency.reserved).reduce<number>((sum, value) => sum + (value ?? 0), 0);
    expect(concurrency.accountLimit - reserved).toBeGreaterThanOrEqual(LAMBDA_MIN_UNRESERVED);
  });

  it("sweeps every minute on an EventBridge schedule, without retries (the next tick does the same work)", () => {
    const rule = resourceOf(template(), "AWS::Events::Rule", `${schedules.webhookSweeper.id}Schedule`);
    expect(rule.Properties).toMatchObject({ ScheduleExpression: "rate(1 minute)", State: "ENABLED" });
    const targets = rule.Properties!.Targets as { Arn: unknown; RetryPolicy?: { MaximumRetryAttempts: number } }[];
    expect(targets).toHaveLength(1);
    expect(targets[0]!.Arn).toEqual({ "Fn::GetAtt": [fn("WebhookSweeper").id, "Arn"] });
    expect(targets[0]!.RetryPolicy?.MaximumRetryAttempts).toBe(0);
  });

  it("grants each function only what it does: no S3, sends on the dispatch queue only, writes by the dispatcher alone", () => {
    const queueArn = JSON.stringify({ "Fn::GetAtt": [queue().id, "Arn"] });
    for (const id of FUNCTION_IDS) {
      const statements = statementsFor(template(), id);
      const actions = statements.flatMap(actionsOf);
      expect(
        actions.filter((action) => action.startsWith("s3:")),
        id,
      ).toEqual([]);
      expect(
        actions.some((action) => action === "*" || action.endsWith(":*")),
        id,
      ).toBe(false);
      const sends = statements.filter((statement) => actionsOf(statement).includes("sqs:SendMessage"));
      expect(
        sends.map((statement) => actionsOf(statement)),
        id,
      ).toEqual([[...WEBHOOK_QUEUE_SEND_ACTIONS]]);
      expect(
        sends.flatMap(resourcesOf).map((resource) => JSON.stringify(resource)),
        id,
      ).toEqual([queueArn]);
      const writes = actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));
      if (id === "WebhookDispatcher") expect(writes.length).toBeGreaterThan(0);
      else expect(writes, id).toEqual([]);
    }
  });

  it("binds the webhook signing keyring to the dispatcher alone, and no other key secret", () => {
    for (const id of FUNCTION_IDS) {
      const env = environmentOf(template(), id);
      const bound = KEY_SECRET_NAMES.filter((name) => env[`SST_Secret_value_${name}`] !== undefined);
      expect(bound, id).toEqual(id === "WebhookDispatcher" ? [KEY_SECRETS.webhookSecret] : []);
    }
  });
});

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
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "./Api";
import { Feeds } from "./Feeds";
import {
  INTEGRITY_DLQ_RETENTION_DAYS,
  INTEGRITY_JOB_MAX_RECEIVES,
  INTEGRITY_JOB_VISIBILITY_SECONDS,
  INTEGRITY_QUEUE_SEND_ACTIONS,
  INTEGRITY_QUEUE_URL_VARIABLE,
  INTEGRITY_WORKER_BATCH_SIZE,
  INTEGRITY_WORKER_MAX_CONCURRENCY,
  INTEGRITY_WORKER_TIMEOUT_SECONDS,
} from "./IntegrityJobs";
import {
  INTEGRITY_QUEUE_URL_VARIABLE as QUEUE_URL_THE_FUNCTIONS_READ,
  STEP_RESERVE_MS,
} from "../packages/functions/src/lambda/integrity-queue";

/** The integrity check's queue and worker (stacks/IntegrityJobs.ts), as the real app synthesises them. */

const SYNTH_TIMEOUT_MS = 300_000;
const HANDLER = "packages/functions/src/lambda/integrity-worker.handler";

describe.each([
  { stage: "pr-42", production: false },
  { stage: "production", production: true },
])("the integrity jobs on stage $stage", ({ stage, production }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
  }, SYNTH_TIMEOUT_MS);

  const template = () => built.template(Api);
  const queue = () => resourceOf(template(), "AWS::SQS::Queue", "IntegrityJobs");
  const deadLetters = () => resourceOf(template(), "AWS::SQS::Queue", "IntegrityJobDeadLetters");
  const queueArn = () => ({ "Fn::GetAtt": [queue().id, "Arn"] });
  const sqsStatements = (t: Template, functionId: string) =>
    statementsFor(t, functionId).filter((s) => actionsOf(s).some((a) => a.startsWith("sqs:")));

  it("has an encrypted, TLS-only queue whose failing messages go to a dead-letter queue", () => {
    expect(queue().Properties).toMatchObject({
      VisibilityTimeout: INTEGRITY_JOB_VISIBILITY_SECONDS,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { "Fn::GetAtt": [deadLetters().id, "Arn"] },
        maxReceiveCount: INTEGRITY_JOB_MAX_RECEIVES,
      },
    });
    expect(INTEGRITY_JOB_VISIBILITY_SECONDS).toBeGreaterThanOrEqual(6 * INTEGRITY_WORKER_TIMEOUT_SECONDS);
    expect(deadLetters().Properties).toMatchObject({
      MessageRetentionPeriod: INTEGRITY_DLQ_RETENTION_DAYS * 86_400,
      SqsManagedSseEnabled: true,
    });
    // Production keeps its dead letters when the stack goes; preview stages do not.
    expect(deadLetters().DeletionPolicy).toBe(production ? "Retain" : "Delete");
    const policies = Object.values(template().findResources("AWS::SQS::QueuePolicy")).map((policy) =>
      JSON.stringify(policy.Properties),
    );
    for (const id of [queue().id, deadLetters().id]) {
      expect(
        policies.some(
          (policy) =>
            policy.includes(`{"Ref":"${id}"}`) &&
            policy.includes('"aws:SecureTransport":"false"') &&
            policy.includes('"Effect":"Deny"'),
        ),
      ).toBe(true);
    }
  });

  it("runs the bundled worker on nodejs22.x / arm64, one message at a time, partial failures reported", () => {
    const worker = resourceOf(template(), "AWS::Lambda::Function", "IntegrityWorker");
    expect(worker.Properties).toMatchObject({
      Handler: HANDLER,
      Runtime: "nodejs22.x",
      Architectures: ["arm64"],
      Timeout: INTEGRITY_WORKER_TIMEOUT_SECONDS,
    });
    // The worker keeps a step's worst case free at the end of each invocation: most of it is left for steps.
    expect(STEP_RESERVE_MS).toBeLessThan((INTEGRITY_WORKER_TIMEOUT_SECONDS * 1000) / 4);
    const asset = (worker.Properties!.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "");
    const bundle = path.join(built.app.outdir, `asset.${asset}`, `${HANDLER.replace(/\.handler$/, "")}.mjs`);
    expect(existsSync(bundle), bundle).toBe(true);
    expect(readFileSync(bundle, "utf8")).toMatch(/export\s*\{[^}]*\bhandler\b/);
    const mappings = Object.values(template().findResources("AWS::Lambda::EventSourceMapping"))
      .map((mapping) => mapping.Properties)
      .filter((mapping) => JSON.stringify(mapping.EventSourceArn) === JSON.stringify(queueArn()));
    expect(mappings).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: worker.id },
        BatchSize: INTEGRITY_WORKER_BATCH_SIZE,
        FunctionResponseTypes: ["ReportBatchItemFailures"],
        ScalingConfig: { MaximumConcurrency: INTEGRITY_WORKER_MAX_CONCURRENCY },
      }),
    ]);
  });

  it("lets the worker use the table and its own queue only; the API only send to it; the feeds nothing", () => {
    expect(INTEGRITY_QUEUE_URL_VARIABLE).toBe(QUEUE_URL_THE_FUNCTIONS_READ);
    expect(environmentOf(template(), "IntegrityWorker")[INTEGRITY_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
    expect(environmentOf(template(), "Api")[INTEGRITY_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
    expect(environmentOf(built.template(Feeds), "Feeds")).not.toHaveProperty(INTEGRITY_QUEUE_URL_VARIABLE);

    const worker = statementsFor(template(), "IntegrityWorker");
    const workerSqs = sqsStatements(template(), "IntegrityWorker");
    expect(workerSqs.flatMap(actionsOf)).toEqual(
      expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:SendMessage"]),
    );
    for (const statement of workerSqs) {
      expect(actionsOf(statement)).not.toContain("sqs:*");
      expect(actionsOf(statement)).not.toContain("sqs:PurgeQueue");
      expect(resourcesOf(statement)).toEqual([queueArn()]);
    }
    const dynamo = worker.filter((s) => actionsOf(s).some((a) => a.startsWith("dynamodb:")));
    expect(dynamo.flatMap(actionsOf)).toEqual(
      expect.arrayContaining([
        "dynamodb:Scan",
        "dynamodb:Query",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
      ]),
    );
    for (const statement of dynamo) {
      expect(actionsOf(statement)).not.toContain("dynamodb:*");
      expect(resourcesOf(statement)).not.toContain("*");
      expect(resourcesOf(statement)).toHaveLength(2); // the table and its indexes
    }
    expect(worker.flatMap(actionsOf).filter((a) => a.startsWith("s3:"))).toEqual([]);

    const apiSends = sqsStatements(template(), "Api").filter(
      (s) => JSON.stringify(resourcesOf(s)) === JSON.stringify([queueArn()]),
    );
    expect(apiSends.map((s) => actionsOf(s))).toEqual([[...INTEGRITY_QUEUE_SEND_ACTIONS]]);
    expect(INTEGRITY_QUEUE_SEND_ACTIONS).toEqual(["sqs:SendMessage"]);
    expect(JSON.stringify(statementsFor(built.template(Feeds), "Feeds"))).not.toContain(queue().id);
  });

  it("alarms on the worker's errors and throttles, the dead letters and the queue's age, to the stage's topic", () => {
    const alarms = Object.values(template().findResources("AWS::CloudWatch::Alarm")).map(
      (alarm) => alarm.Properties as { Dimensions?: unknown; MetricName: string; AlarmActions: unknown[] },
    );
    const worker = resourceOf(template(), "AWS::Lambda::Function", "IntegrityWorker");
    const onWorker = alarms.filter((alarm) =>
      JSON.stringify(alarm.Dimensions ?? []).includes(`{"Ref":"${worker.id}"}`),
    );
    expect(onWorker.map((alarm) => alarm.MetricName).sort()).toEqual(["Errors", "Throttles"]);
    const onQueue = (id: string) =>
      alarms.filter((alarm) => JSON.stringify(alarm.Dimensions ?? []).includes(`{"Fn::GetAtt":["${id}","QueueName"]}`));
    expect(onQueue(deadLetters().id).map((alarm) => alarm.MetricName)).toEqual(["ApproximateNumberOfMessagesVisible"]);
    expect(onQueue(queue().id).map((alarm) => alarm.MetricName)).toEqual(["ApproximateAgeOfOldestMessage"]);
    for (const alarm of [...onWorker, ...onQueue(deadLetters().id), ...onQueue(queue().id)])
      expect(alarm.AlarmActions).toHaveLength(1);
  });
});

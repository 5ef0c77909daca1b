import {
  actionsOf,
  environmentOf,
  exportedValue,
  resourceOf,
  resourcesOf,
  statementsFor,
  synth,
  type SynthesizedApp,
} from "./testing";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { schedules, settlementsBucket } from "../infra/resources";
import {
  INCOMING_PREFIX,
  MISSING_FILE_LOG_MESSAGE,
  MISSING_FILE_METRIC,
  REJECTED_FILE_LOG_MESSAGE,
  REJECTED_FILE_METRIC,
  RESULTS_PREFIX,
} from "../packages/core/src/reconciliation/model";
import { ALARM_PERIOD_MINUTES, DEAD_LETTERS_VISIBLE, ERRORS_PER_PERIOD } from "./alarms";
import { Api } from "./Api";
import {
  MISSING_FILES_THRESHOLD,
  REJECTED_FILES_THRESHOLD,
  NIGHTLY_RECONCILIATION_TIMEOUT_SECONDS,
  PROCESSOR_ACTIONS,
  RECONCILER_LIST_ACTIONS,
  RECONCILER_READ_ACTIONS,
  RECONCILER_WRITE_ACTIONS,
  reconciliationNamespace,
  SETTLEMENT_OBJECT_FAILURE_RETENTION_DAYS,
  SETTLEMENT_OBJECT_TIMEOUT_SECONDS,
} from "./Reconciliation";
import { deploySettings } from "./settings";
import { Storage } from "./Storage";

/**
 * Settlement reconciliation's cloud wiring (stacks/Reconciliation.ts) as the real app synthesises
 * it: the bucket's notification, the nightly schedule, each function's grants, the alarms, log
 * retention and the processor role.
 */

const SYNTH_TIMEOUT_MS = 300_000;
const OBJECT_HANDLER = "packages/functions/src/lambda/settlement-object.handler";
const NIGHTLY_HANDLER = "packages/functions/src/lambda/nightly-reconciliation.handler";

const alarmsOf = (template: Template) =>
  Object.values(template.findResources("AWS::CloudWatch::Alarm")).map(
    (alarm) => alarm.Properties as Record<string, unknown>,
  );
const dimension = (alarm: Record<string, unknown>, name: string) =>
  JSON.stringify(
    (alarm.Dimensions as { Name: string; Value: unknown }[] | undefined)?.find((d) => d.Name === name)?.Value,
  );

/** The S3 statements of a function's role, as {actions, resources} with each resource's text. */
const s3Grants = (template: Template, functionId: string) =>
  statementsFor(template, functionId)
    .filter((statement) => actionsOf(statement).some((action) => action.startsWith("s3:")))
    .map((statement) => ({
      actions: actionsOf(statement).sort(),
      resources: resourcesOf(statement).map((resource) => JSON.stringify(resource)),
      condition: statement.Condition,
    }));

describe.each([
  { stage: "pr-42", production: false },
  { stage: "production", production: true },
])("reconciliation on stage $stage", ({ stage, production }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
  }, SYNTH_TIMEOUT_MS);

  const storage = () => built.template(Storage);
  const api = () => built.template(Api);
  const bucket = () => resourceOf(storage(), "AWS::S3::Bucket", settlementsBucket.id);
  const objectFunction = () => resourceOf(storage(), "AWS::Lambda::Function", "SettlementObjectCreated");
  const nightlyFunction = () => resourceOf(api(), "AWS::Lambda::Function", "NightlyReconciliation");
  /** A settlements bucket ARN for objects under `prefix`, as the Storage stack writes it. */
  const objectsUnder = (prefix: string) =>
    JSON.stringify({ "Fn::Join": ["", [{ "Fn::GetAtt": [bucket().id, "Arn"] }, `/${prefix}*`]] });

  it("sends ObjectCreated of .csv files under the incoming prefix, and nothing else, to the object function", () => {
    expect(INCOMING_PREFIX).toBe(settlementsBucket.incomingPrefix);
    storage().hasResourceProperties("Custom::S3BucketNotifications", {
      BucketName: { Ref: bucket().id },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ["s3:ObjectCreated:*"],
            Filter: {
              Key: {
                FilterRules: [
                  { Name: "suffix", Value: ".csv" },
                  { Name: "prefix", Value: "incoming/" },
                ],
              },
            },
            LambdaFunctionArn: { "Fn::GetAtt": [objectFunction().id, "Arn"] },
          },
        ],
      },
    });
    storage().hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunction",
      FunctionName: { "Fn::GetAtt": [objectFunction().id, "Arn"] },
      Principal: "s3.amazonaws.com",
      SourceArn: { "Fn::GetAtt": [bucket().id, "Arn"] },
    });
  });

  it("runs both handlers on nodejs22.x / arm64 with the storage names and the stage's log retention", () => {
    for (const [template, fn, handler, timeout] of [
      [storage(), objectFunction(), OBJECT_HANDLER, SETTLEMENT_OBJECT_TIMEOUT_SECONDS],
      [api(), nightlyFunction(), NIGHTLY_HANDLER, NIGHTLY_RECONCILIATION_TIMEOUT_SECONDS],
    ] as const) {
      expect(fn.Properties).toMatchObject({
        Handler: handler,
        Runtime: "nodejs22.x",
        Architectures: ["arm64"],
        Timeout: timeout,
      });
      template.hasResourceProperties("Custom::LogRetention", {
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: fn.id }]] },
        RetentionInDays: production ? 365 : 14,
      });
    }
    expect(environmentOf(storage(), "SettlementObjectCreated")).toMatchObject({
      STAGE: stage,
      SETTLEMENTS_BUCKET: { Ref: bucket().id },
    });
    const nightlyEnv = environmentOf(api(), "NightlyReconciliation");
    expect(exportedValue(storage(), nightlyEnv.SETTLEMENTS_BUCKET)).toEqual({ Ref: bucket().id });
    // Neither function answers requests: no origin proof, no key secret.
    for (const env of [environmentOf(storage(), "SettlementObjectCreated"), nightlyEnv]) {
      expect(Object.keys(env).filter((name) => /ORIGIN_SECRET|SST_Secret/.test(name))).toEqual([]);
    }
  });

  it("lets the object function read incoming files, write results and use the table, nothing more in S3", () => {
    expect(s3Grants(storage(), "SettlementObjectCreated")).toEqual([
      {
        actions: [...RECONCILER_READ_ACTIONS].sort(),
        resources: [objectsUnder(INCOMING_PREFIX)],
        condition: undefined,
      },
      {
        actions: [...RECONCILER_WRITE_ACTIONS].sort(),
        resources: [objectsUnder(RESULTS_PREFIX)],
        condition: undefined,
      },
    ]);
    const actions = statementsFor(storage(), "SettlementObjectCreated").flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"]));
    expect(
      actions.filter((action) => /Delete|Acl|Policy|BypassGovernance|\*/.test(action) && action.startsWith("s3:")),
    ).toEqual([]);
  });

  it("lets the nightly run also list the incoming prefix (and only it)", () => {
    const grants = s3Grants(api(), "NightlyReconciliation");
    expect(grants.map(({ actions }) => actions)).toEqual([
      [...RECONCILER_READ_ACTIONS].sort(),
      [...RECONCILER_WRITE_ACTIONS].sort(),
      [...RECONCILER_LIST_ACTIONS].sort(),
    ]);
    expect(grants[0]!.resources[0]).toContain(`/${INCOMING_PREFIX}*`);
    expect(grants[1]!.resources[0]).toContain(`/${RESULTS_PREFIX}*`);
    expect(grants[2]!.condition).toEqual({ StringLike: { "s3:prefix": [`${INCOMING_PREFIX}*`] } });
  });

  it("runs the nightly function on the schedule of infra/resources, retried by EventBridge", () => {
    const rule = resourceOf(api(), "AWS::Events::Rule", `${schedules.nightlyReconciliation.id}Schedule`);
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: schedules.nightlyReconciliation.cron,
      State: "ENABLED",
      Targets: [expect.objectContaining({ Arn: { "Fn::GetAtt": [nightlyFunction().id, "Arn"] } })],
    });
    api().hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunction",
      FunctionName: { "Fn::GetAtt": [nightlyFunction().id, "Arn"] },
      Principal: "events.amazonaws.com",
      SourceArn: { "Fn::GetAtt": [rule.id, "Arn"] },
    });
  });

  it("alarms on each function's errors", () => {
    for (const [template, fn] of [
      [storage(), objectFunction()],
      [api(), nightlyFunction()],
    ] as const) {
      const errors = alarmsOf(template).filter(
        (alarm) => alarm.MetricName === "Errors" && dimension(alarm, "FunctionName") === JSON.stringify({ Ref: fn.id }),
      );
      expect(errors, fn.id).toEqual([expect.objectContaining({ Threshold: ERRORS_PER_PERIOD, Statistic: "Sum" })]);
    }
  });

  it("alarms on any missing file (the nightly log) and any file rejected whole (the object function's log)", () => {
    const counted = [
      [
        api(),
        nightlyFunction(),
        "SettlementFileMissingFilter",
        MISSING_FILE_LOG_MESSAGE,
        MISSING_FILE_METRIC,
        MISSING_FILES_THRESHOLD,
      ],
      [
        storage(),
        objectFunction(),
        "SettlementFileRejectedFilter",
        REJECTED_FILE_LOG_MESSAGE,
        REJECTED_FILE_METRIC,
        REJECTED_FILES_THRESHOLD,
      ],
    ] as const;
    for (const [template, fn, filterId, message, metric, threshold] of counted) {
      expect(resourceOf(template, "AWS::Logs::MetricFilter", filterId).Properties, filterId).toMatchObject({
        FilterPattern: `{ $.message = "${message}" }`,
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: fn.id }]] },
        MetricTransformations: [
          { MetricName: metric, MetricNamespace: reconciliationNamespace(stage), MetricValue: "1" },
        ],
      });
      expect(
        alarmsOf(template).filter((alarm) => alarm.MetricName === metric),
        metric,
      ).toEqual([
        expect.objectContaining({
          Namespace: reconciliationNamespace(stage),
          Statistic: "Sum",
          Period: ALARM_PERIOD_MINUTES * 60,
          Threshold: threshold,
          ComparisonOperator: "GreaterThanOrEqualToThreshold",
        }),
      ]);
    }
  });

  it("keeps object events the function kept failing on in a dead-letter queue that alarms", () => {
    const queue = resourceOf(storage(), "AWS::SQS::Queue", "SettlementObjectCreatedFailures");
    expect(objectFunction().Properties!.DeadLetterConfig).toEqual({ TargetArn: { "Fn::GetAtt": [queue.id, "Arn"] } });
    expect(queue.Properties).toMatchObject({
      MessageRetentionPeriod: SETTLEMENT_OBJECT_FAILURE_RETENTION_DAYS * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    expect(queue.DeletionPolicy).toBe(production ? "Retain" : "Delete");
    const depth = alarmsOf(storage()).filter(
      (alarm) => dimension(alarm, "QueueName") === JSON.stringify({ "Fn::GetAtt": [queue.id, "QueueName"] }),
    );
    expect(depth).toEqual([expect.objectContaining({ Threshold: DEAD_LETTERS_VISIBLE })]);
  });

  it("has a processor role that may only put objects under the incoming prefix", () => {
    const role = resourceOf(storage(), "AWS::IAM::Role", "SettlementProcessor");
    expect(JSON.stringify(role.Properties!.AssumeRolePolicyDocument)).toContain(":root");
    const policies = Object.values(storage().findResources("AWS::IAM::Policy")).filter(
      (policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role.id }]),
    );
    const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as never[]);
    expect(statements).toEqual([
      {
        Effect: "Allow",
        Action: PROCESSOR_ACTIONS.length === 1 ? PROCESSOR_ACTIONS[0] : [...PROCESSOR_ACTIONS],
        Resource: JSON.parse(objectsUnder(INCOMING_PREFIX)),
      },
    ]);
  });
});

describe("the processor principal setting", () => {
  it("defaults to none and takes an account root or role ARN at deploy time, refusing anything else", () => {
    expect(deploySettings("production", {}).settlementProcessorPrincipal).toBeNull();
    const arn = "arn:aws:iam::210987654321:role/settlement-drops";
    expect(
      deploySettings("production", { DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL: ` ${arn} ` }).settlementProcessorPrincipal,
    ).toBe(arn);
    for (const bad of ["*", "arn:aws:iam::*:root", "210987654321", "arn:aws:iam::210987654321:user/alice"]) {
      expect(() => deploySettings("pr-1", { DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL: bad }), bad).toThrow(
        /DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL/,
      );
    }
  });

  it("names the processor's principal in the role's trust policy when set", async () => {
    const { processorPrincipal } = await import("./Reconciliation");
    const arn = "arn:aws:iam::210987654321:role/settlement-drops";
    expect(processorPrincipal({ settlementProcessorPrincipal: arn }).policyFragment.principalJson).toEqual({
      AWS: [arn],
    });
  });
});

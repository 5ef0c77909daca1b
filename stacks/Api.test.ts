import { loadConfig } from "@fintech/core/shared/config";
import { exportedValue, resourceOf, synth, type SynthesizedApp } from "./testing";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket } from "../infra/spec";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ALARM_PERIOD_MINUTES, DURATION_P99_SHARE_OF_TIMEOUT, FIVE_XX_PER_PERIOD } from "./alarms";
import { Api, API_TIMEOUT_SECONDS, BUCKET_ACTIONS, KYC_OBJECT_ACTIONS, SETTLEMENT_OBJECT_ACTIONS } from "./Api";
import { Feeds, FEEDS_TIMEOUT_SECONDS } from "./Feeds";
import {
  PAYMENT_DLQ_RETENTION_DAYS,
  PAYMENT_QUEUE_SEND_ACTIONS,
  PAYMENT_QUEUE_URL_VARIABLE,
  PAYMENT_STEP_MAX_RECEIVES,
  PAYMENT_STEP_VISIBILITY_SECONDS,
  PAYMENT_WORKER_BATCH_SIZE,
  PAYMENT_WORKER_MAX_CONCURRENCY,
  PAYMENT_WORKER_TIMEOUT_SECONDS,
} from "./PaymentWorker";
import { PAYMENT_QUEUE_URL_VARIABLE as QUEUE_URL_THE_FUNCTIONS_READ } from "../packages/functions/src/lambda/payment-queue";
import { schedules } from "../infra/spec";
import { Storage } from "./Storage";

const SYNTH_TIMEOUT_MS = 60_000;

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const actionsOf = (statement: Statement) => [statement.Action].flat();
const resourcesOf = (statement: Statement) => [statement.Resource].flat();

/** Every statement of the policies attached to the role of the function `functionId`. */
function statementsFor(template: Template, functionId: string): Statement[] {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  const role = (fn.Properties!.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
  const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter((policy) =>
    JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]),
  );
  expect(policies.length).toBeGreaterThan(0);
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** Resolves a resource ARN that another stack imports to the producing resource's logical id. */
function arnTarget(storage: Template, resource: unknown): { id: string; suffix: string } {
  const join = (resource as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  const [imported, suffix] = join ? [join[1][0], join[1].slice(1).join("")] : [resource, ""];
  const value = exportedValue(storage, imported) as { "Fn::GetAtt"?: [string, string] };
  expect(value["Fn::GetAtt"]?.[1]).toBe("Arn");
  return { id: value["Fn::GetAtt"]![0], suffix: String(suffix) };
}

function environmentOf(template: Template, functionId: string): Record<string, unknown> {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  return (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
}

const DATA_PLANE_WRITES = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"];

describe.each([
  { stage: "pr-42", production: false },
  { stage: "production", production: true },
])("Api and Feeds functions on stage $stage", ({ stage, production }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
  }, SYNTH_TIMEOUT_MS);

  const storage = () => built.template(Storage);
  const tableId = () => resourceOf(storage(), "AWS::DynamoDB::Table", appTable.id).id;
  const bucketId = (id: string) => resourceOf(storage(), "AWS::S3::Bucket", id).id;

  describe.each([
    { stack: Api, functionId: "Api", handler: "packages/functions/src/lambda/api.handler" },
    { stack: Feeds, functionId: "Feeds", handler: "packages/functions/src/lambda/feeds.handler" },
  ])("$functionId function", ({ stack, functionId, handler }) => {
    const template = () => built.template(stack);

    it("runs the bundled handler on nodejs22.x / x86_64 (sharp's native binary is the build machine's)", () => {
      const fn = resourceOf(template(), "AWS::Lambda::Function", functionId);
      expect(fn.Properties).toMatchObject({ Handler: handler, Runtime: "nodejs22.x", Architectures: ["x86_64"] });
      // A real esbuild bundle as an S3 asset, not SST's inline placeholder.
      expect(fn.Properties!.Code).toHaveProperty("S3Key");
      template().hasResourceProperties("Custom::LogRetention", {
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: fn.id }]] },
        RetentionInDays: production ? 365 : 14,
      });
    });

    it("gets the storage names and the stage settings in its environment", () => {
      const env = environmentOf(template(), functionId);
      expect(env).toMatchObject({
        STAGE: stage,
        LOG_LEVEL: production ? "info" : "debug",
        ALLOW_TEST_BALANCE: production ? "false" : "true",
        CORS_ORIGINS: production ? "" : "http://localhost:5173,http://localhost:3000",
      });
      expect(exportedValue(storage(), env.TABLE_NAME)).toEqual({ Ref: tableId() });
      expect(exportedValue(storage(), env.KYC_BUCKET)).toEqual({ Ref: bucketId(kycDocumentsBucket.id) });
      expect(exportedValue(storage(), env.SETTLEMENTS_BUCKET)).toEqual({ Ref: bucketId(settlementsBucket.id) });
    });

    it("is bound to the JWT_SECRET Config.Secret", () => {
      expect(environmentOf(template(), functionId).SST_Secret_value_JWT_SECRET).toBe("__FETCH_FROM_SSM__");
      // What lambda/secrets.ts reads to find the parameter (SST's own path layout).
      expect(environmentOf(template(), functionId)).toMatchObject({ SST_APP: "fintech-platform", SST_STAGE: stage, SST_SSM_PREFIX: `/sst/fintech-platform/${stage}/` });
      const ssm = statementsFor(template(), functionId).filter((s) => actionsOf(s).includes("ssm:GetParameters"));
      expect(JSON.stringify(ssm)).toContain(`/sst/fintech-platform/${stage}/Secret/JWT_SECRET/value`);
    });

    it("touches DynamoDB only on the table and its indexes, never with a wildcard", () => {
      const statements = statementsFor(template(), functionId);
      const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith("dynamodb:")));
      expect(dynamo.length).toBeGreaterThan(0);
      for (const statement of dynamo) {
        expect(actionsOf(statement)).not.toContain("dynamodb:*");
        const targets = resourcesOf(statement).map((resource) => {
          expect(resource).not.toBe("*");
          return arnTarget(storage(), resource);
        });
        expect(targets).toEqual([
          { id: tableId(), suffix: "" },
          { id: tableId(), suffix: "/index/*" },
        ]);
      }
      // The only account-wide grant is X-Ray, whose actions take no resource ARNs.
      for (const statement of statements.filter((s) => resourcesOf(s).includes("*"))) {
        expect(actionsOf(statement).every((a) => a.startsWith("xray:"))).toBe(true);
      }
    });

    it("has a function URL without IAM auth or URL-level CORS (the app does CORS)", () => {
      const url = resourceOf(template(), "AWS::Lambda::Url", functionId);
      expect(url.Properties).toMatchObject({ AuthType: "NONE" });
      expect(url.Properties).not.toHaveProperty("Cors");
    });

    it("checks CloudFront's origin proof: ORIGIN_SECRET is the generated secret, resolved at deploy", () => {
      const secret = resourceOf(built.template(Api), "AWS::SecretsManager::Secret", "OriginSecret");
      expect(secret.Properties!.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
      const value = JSON.stringify(environmentOf(template(), functionId).ORIGIN_SECRET);
      expect(value).toContain("{{resolve:secretsmanager:");
      expect(value).toContain(":SecretString:::}}");
      // The API stack refers to its own secret; the Feeds stack imports the same one.
      if (stack === Api) expect(value).toContain(`{"Ref":"${secret.id}"}`);
      else expect(JSON.stringify(exportedValue(built.template(Api), JSON.parse(value)["Fn::Join"][1][1]))).toBe(`{"Ref":"${secret.id}"}`);
    });

    it("ships a minified bundle with zod's English messages only and no second AWS SDK", () => {
      const fn = resourceOf(template(), "AWS::Lambda::Function", functionId);
      const asset = (fn.Properties!.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "");
      const file = path.join(built.app.outdir, `asset.${asset}`, `${handler.replace(/\.handler$/, "")}.mjs`);
      expect(existsSync(file), file).toBe(true);
      const bundle = readFileSync(file, "utf8");
      expect(bundle).toContain("Invalid input"); // zod's English locale
      expect(bundle).not.toContain("Entrada inválida"); // es, one of the 48 others
      expect(bundle).not.toContain("Ungültige Eingabe"); // de
      // Not SST's runtime client (sst/node/config brings its own, older AWS SDK)...
      expect(bundle).not.toContain("Cannot access bound resources");
      // ...and no STS/SSO clients of the default credential chain (Lambda's credentials are in the environment).
      expect(bundle).not.toContain("AWSSecurityTokenServiceV20110615");
      // Minified: no indentation runs of ordinary, unminified output.
      expect(bundle.split("\n").length).toBeLessThan(bundle.length / 1000);
    });
  });

  it("lets the API read and write the table, and only read, list or upload the objects it uses", () => {
    const statements = statementsFor(built.template(Api), "Api");
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining([...DATA_PLANE_WRITES, "dynamodb:Query", "dynamodb:GetItem"]));
    const s3 = statements.filter((s) => actionsOf(s).some((a) => a.startsWith("s3:")));
    const granted = s3.map((statement) => ({
      actions: actionsOf(statement),
      targets: resourcesOf(statement).map((resource) => arnTarget(storage(), resource)),
    }));
    const kyc = bucketId(kycDocumentsBucket.id);
    const settlements = bucketId(settlementsBucket.id);
    expect(granted).toEqual([
      { actions: [...BUCKET_ACTIONS], targets: [{ id: kyc, suffix: "" }, { id: settlements, suffix: "" }] },
      { actions: [...KYC_OBJECT_ACTIONS], targets: [{ id: kyc, suffix: "/*" }] },
      { actions: [...SETTLEMENT_OBJECT_ACTIONS], targets: [{ id: settlements, suffix: "/*" }] },
    ]);
    // Nothing that rewrites or removes evidence: no deletes, no ACL or bucket policy changes.
    for (const action of actions.filter((a) => a.startsWith("s3:"))) {
      expect(action).not.toMatch(/Delete|Acl|Policy|\*/);
    }
    expect(SETTLEMENT_OBJECT_ACTIONS).not.toContain("s3:PutObject");
  });

  it("alarms on API 5xx, throttles and p99 duration, and on feed 5xx and throttles, to one topic", () => {
    const alarmsOf = (template: Template) =>
      Object.values(template.findResources("AWS::CloudWatch::Alarm")).map((alarm) => alarm.Properties as Record<string, unknown>);
    const topic = resourceOf(built.template(Api), "AWS::SNS::Topic", "Alarms");
    const api = resourceOf(built.template(Api), "AWS::Lambda::Function", "Api");
    // The API's own alarms (the stack also holds the payment queue's dead-letter alarm, tested below).
    const apiAlarms = alarmsOf(built.template(Api)).filter((alarm) => alarm.Namespace === "AWS/Lambda");
    expect(apiAlarms.map((alarm) => alarm.MetricName).sort()).toEqual(["Duration", "Throttles", "Url5xxCount"]);
    for (const alarm of apiAlarms) {
      expect(alarm).toMatchObject({
        Namespace: "AWS/Lambda",
        Dimensions: [{ Name: "FunctionName", Value: { Ref: api.id } }],
        Period: ALARM_PERIOD_MINUTES * 60,
        AlarmActions: [{ Ref: topic.id }],
        TreatMissingData: "notBreaching",
      });
    }
    expect(apiAlarms.find((alarm) => alarm.MetricName === "Url5xxCount")).toMatchObject({ Statistic: "Sum", Threshold: FIVE_XX_PER_PERIOD });
    expect(apiAlarms.find((alarm) => alarm.MetricName === "Duration")).toMatchObject({
      ExtendedStatistic: "p99",
      Threshold: API_TIMEOUT_SECONDS * 1000 * DURATION_P99_SHARE_OF_TIMEOUT,
    });
    const feedAlarms = alarmsOf(built.template(Feeds));
    expect(feedAlarms.map((alarm) => alarm.MetricName).sort()).toEqual(["Throttles", "Url5xxCount"]);
    for (const alarm of feedAlarms) {
      expect(exportedValue(built.template(Api), (alarm.AlarmActions as unknown[])[0])).toEqual({ Ref: topic.id });
    }
  });

  it("answers API requests buffered", () => {
    const url = resourceOf(built.template(Api), "AWS::Lambda::Url", "Api");
    expect(url.Properties!.InvokeMode).toBe("BUFFERED");
  });

  it("streams the feeds, for up to Lambda's 15 minutes", () => {
    const url = resourceOf(built.template(Feeds), "AWS::Lambda::Url", "Feeds");
    expect(url.Properties!.InvokeMode).toBe("RESPONSE_STREAM");
    const fn = resourceOf(built.template(Feeds), "AWS::Lambda::Function", "Feeds");
    expect(fn.Properties!.Timeout).toBe(FEEDS_TIMEOUT_SECONDS);
    expect(FEEDS_TIMEOUT_SECONDS).toBe(900);
    // The app ends each stream well before the function's limit (the client resumes), and
    // heartbeats inside CloudFront's 30 s idle limit and the 60 s origin read timeout.
    const defaults = loadConfig({ JWT_SECRET: "x".repeat(32) });
    expect(defaults.FEED_MAX_SECONDS).toBeLessThanOrEqual(FEEDS_TIMEOUT_SECONDS / 2);
    expect(defaults.FEED_HEARTBEAT_MS).toBeLessThanOrEqual(15_000);
  });

  it("gives the feeds read access only: no writes, no S3", () => {
    const actions = statementsFor(built.template(Feeds), "Feeds").flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:Query", "dynamodb:GetItem"]));
    for (const write of DATA_PLANE_WRITES) expect(actions).not.toContain(write);
    expect(actions.filter((action) => action.startsWith("s3:"))).toEqual([]);
  });

  describe("payment worker", () => {
    const template = () => built.template(Api);
    const queue = () => resourceOf(template(), "AWS::SQS::Queue", "PaymentSteps");
    const deadLetters = () => resourceOf(template(), "AWS::SQS::Queue", "PaymentStepDeadLetters");
    const queueArn = () => ({ "Fn::GetAtt": [queue().id, "Arn"] });
    const sqsStatements = (functionId: string) => statementsFor(template(), functionId).filter((s) => actionsOf(s).some((a) => a.startsWith("sqs:")));

    it("has an encrypted, TLS-only step queue whose failing messages go to a dead-letter queue", () => {
      expect(queue().Properties).toMatchObject({
        VisibilityTimeout: PAYMENT_STEP_VISIBILITY_SECONDS,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { "Fn::GetAtt": [deadLetters().id, "Arn"] }, maxReceiveCount: PAYMENT_STEP_MAX_RECEIVES },
      });
      expect(PAYMENT_STEP_VISIBILITY_SECONDS).toBeGreaterThanOrEqual(6 * PAYMENT_WORKER_TIMEOUT_SECONDS);
      expect(deadLetters().Properties).toMatchObject({ MessageRetentionPeriod: PAYMENT_DLQ_RETENTION_DAYS * 86_400, SqsManagedSseEnabled: true });
      const policies = Object.values(template().findResources("AWS::SQS::QueuePolicy")).map((policy) => JSON.stringify(policy.Properties));
      for (const id of [queue().id, deadLetters().id]) {
        expect(policies.some((policy) => policy.includes(`{"Ref":"${id}"}`) && policy.includes('"aws:SecureTransport":"false"') && policy.includes('"Effect":"Deny"'))).toBe(true);
      }
    });

    it("consumes the queue with the worker: batches, partial failures, bounded concurrency", () => {
      const worker = resourceOf(template(), "AWS::Lambda::Function", "PaymentWorker");
      expect(worker.Properties).toMatchObject({ Handler: "packages/functions/src/lambda/payment-worker.handler", Runtime: "nodejs22.x", Timeout: PAYMENT_WORKER_TIMEOUT_SECONDS });
      const mappings = Object.values(template().findResources("AWS::Lambda::EventSourceMapping")).map((mapping) => mapping.Properties);
      expect(mappings).toEqual([
        expect.objectContaining({
          EventSourceArn: queueArn(),
          FunctionName: { Ref: worker.id },
          BatchSize: PAYMENT_WORKER_BATCH_SIZE,
          FunctionResponseTypes: ["ReportBatchItemFailures"],
          ScalingConfig: { MaximumConcurrency: PAYMENT_WORKER_MAX_CONCURRENCY },
        }),
      ]);
    });

    it("runs the sweeper on the EventBridge schedule of infra/spec, every minute", () => {
      const sweeper = resourceOf(template(), "AWS::Lambda::Function", "PaymentSweeper");
      expect(sweeper.Properties).toMatchObject({ Handler: "packages/functions/src/lambda/payment-sweeper.handler" });
      const rules = Object.values(template().findResources("AWS::Events::Rule")).map((rule) => rule.Properties);
      expect(schedules.paymentSweeper.cron).toBe("rate(1 minute)");
      expect(rules).toEqual([
        expect.objectContaining({
          ScheduleExpression: schedules.paymentSweeper.cron,
          State: "ENABLED",
          Targets: [expect.objectContaining({ Arn: { "Fn::GetAtt": [sweeper.id, "Arn"] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
        }),
      ]);
      template().hasResourceProperties("AWS::Lambda::Permission", { Action: "lambda:InvokeFunction", Principal: "events.amazonaws.com", FunctionName: { "Fn::GetAtt": [sweeper.id, "Arn"] } });
    });

    it("gives the API the queue URL and sqs:SendMessage on that queue only; the feeds nothing of it", () => {
      expect(PAYMENT_QUEUE_URL_VARIABLE).toBe(QUEUE_URL_THE_FUNCTIONS_READ);
      expect(environmentOf(template(), "Api")[PAYMENT_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
      expect(sqsStatements("Api").map((s) => ({ actions: actionsOf(s), resources: resourcesOf(s) }))).toEqual([{ actions: [...PAYMENT_QUEUE_SEND_ACTIONS], resources: [queueArn()] }]);
      expect(PAYMENT_QUEUE_SEND_ACTIONS).toEqual(["sqs:SendMessage"]);
      expect(environmentOf(built.template(Feeds), "Feeds")).not.toHaveProperty(PAYMENT_QUEUE_URL_VARIABLE);
      expect(statementsFor(built.template(Feeds), "Feeds").flatMap(actionsOf).filter((a) => a.startsWith("sqs:"))).toEqual([]);
    });

    it("lets the worker receive, delete and send on the step queue and write the table; the sweeper only reads and sends", () => {
      const worker = sqsStatements("PaymentWorker");
      expect(worker.flatMap(actionsOf)).toEqual(expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:SendMessage"]));
      const sweeper = sqsStatements("PaymentSweeper");
      expect(sweeper.flatMap(actionsOf)).toEqual(["sqs:SendMessage"]);
      for (const statement of [...worker, ...sweeper]) {
        expect(actionsOf(statement)).not.toContain("sqs:*");
        expect(actionsOf(statement)).not.toContain("sqs:PurgeQueue");
        expect(resourcesOf(statement)).toEqual([queueArn()]);
      }
      const workerActions = statementsFor(template(), "PaymentWorker").flatMap(actionsOf);
      expect(workerActions).toEqual(expect.arrayContaining(DATA_PLANE_WRITES));
      const sweeperActions = statementsFor(template(), "PaymentSweeper").flatMap(actionsOf);
      expect(sweeperActions).toEqual(expect.arrayContaining(["dynamodb:Query"]));
      for (const write of DATA_PLANE_WRITES) expect(sweeperActions).not.toContain(write);
      for (const functionId of ["PaymentWorker", "PaymentSweeper"]) {
        expect(environmentOf(template(), functionId)[PAYMENT_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
        expect(statementsFor(template(), functionId).flatMap(actionsOf).filter((a) => a.startsWith("s3:"))).toEqual([]);
      }
    });

    it("alarms when a step lands in the dead-letter queue", () => {
      const topic = resourceOf(template(), "AWS::SNS::Topic", "Alarms");
      const alarm = resourceOf(template(), "AWS::CloudWatch::Alarm", "PaymentStepDeadLettersAlarm");
      expect(alarm.Properties).toMatchObject({
        Namespace: "AWS/SQS",
        MetricName: "ApproximateNumberOfMessagesVisible",
        Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [deadLetters().id, "QueueName"] } }],
        Threshold: 1,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        AlarmActions: [{ Ref: topic.id }],
      });
    });
  });
});

import { loadConfig } from "@fintech/core/shared/config";
import {
  actionsOf,
  environmentOf,
  exportedValue,
  resourceOf,
  resourcesOf,
  statementsFor,
  synth,
  type CfnResource,
  type StackFunction,
  type Statement,
  type SynthesizedApp,
} from "./testing";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket } from "../infra/resources";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  ACCOUNT_CONCURRENCY_SHARE,
  ALARM_PERIOD_MINUTES,
  CLOUDFRONT_5XX_PERIODS,
  CLOUDFRONT_5XX_RATE_PERCENT,
  CLOUDFRONT_METRICS_REGION,
  DEAD_LETTERS_VISIBLE,
  DURATION_P99_SHARE_OF_TIMEOUT,
  ERRORS_PER_PERIOD,
  FIVE_XX_PER_PERIOD,
  QUEUE_AGE_BEYOND_DELAY_SECONDS,
  THROTTLES_PER_PERIOD,
} from "./alarms";
import { Alerts } from "./Alerts";
import { Dashboard } from "./Dashboard";
import { Web } from "./Web";
import { deploySettings } from "./settings";
import { DEFAULT_ACCOUNT_CONCURRENCY_LIMIT, FEEDS_FUNCTION, LAMBDA_MIN_UNRESERVED } from "../infra/stage";
import { STREAM_LEASE_PREFIX, streamLeasePartition } from "../packages/core/src/events/keys";
import { DUE_PARTITION_PREFIX, duePartition, paymentPartition } from "../packages/core/src/payments/keys";
import { PAYMENT_PARKED_LOG_MESSAGE, STEP_LEASE_MS } from "../packages/core/src/payments/model";
import {
  Api,
  API_TIMEOUT_SECONDS,
  BUCKET_ACTIONS,
  COMPLIANCE_EXPORT_ACTIONS,
  KYC_OBJECT_ACTIONS,
  originProofValues,
} from "./Api";
import { COMPLIANCE_EXPORT_PREFIX } from "../packages/core/src/compliance/keys";
import { API_SETTLEMENT_INCOMING_ACTIONS, API_SETTLEMENT_RESULT_ACTIONS } from "./Reconciliation";
import { INCOMING_PREFIX, RESULTS_PREFIX } from "../packages/core/src/reconciliation/model";
import { Feeds, FEEDS_TIMEOUT_SECONDS, STREAM_LEASE_WRITE_ACTIONS } from "./Feeds";
import {
  PAYMENT_DLQ_RETENTION_DAYS,
  PAYMENT_QUEUE_SEND_ACTIONS,
  PAYMENT_QUEUE_URL_VARIABLE,
  PAYMENT_STEP_MAX_RECEIVES,
  PAYMENT_STEP_VISIBILITY_SECONDS,
  PAYMENT_WORKER_BATCH_SIZE,
  PAYMENT_WORKER_MAX_CONCURRENCY,
  PAYMENT_WORKER_TIMEOUT_SECONDS,
  PARKED_PAYMENTS_METRIC,
  parkedPaymentsNamespace,
  SWEEPER_TABLE_WRITE_ACTIONS,
} from "./PaymentWorker";
import {
  MAX_DELAY_SECONDS,
  PAYMENT_QUEUE_URL_VARIABLE as QUEUE_URL_THE_FUNCTIONS_READ,
} from "../packages/functions/src/lambda/payment-queue";
import { schedules } from "../infra/resources";
import { Storage } from "./Storage";
import { KEY_SECRET_NAMES } from "../packages/core/src/shared/secret-names";
import { App as CdkApp, Stack as CdkStack } from "aws-cdk-lib";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";

// Generous: synthesis bundles every function, and the machine may be busy with other work.
const SYNTH_TIMEOUT_MS = 300_000;

/** Resolves a resource ARN that another stack imports to the producing resource's logical id. */
function arnTarget(storage: Template, resource: unknown): { id: string; suffix: string } {
  const join = (resource as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  const [imported, suffix] = join ? [join[1][0], join[1].slice(1).join("")] : [resource, ""];
  const value = exportedValue(storage, imported) as { "Fn::GetAtt"?: [string, string] };
  expect(value["Fn::GetAtt"]?.[1]).toBe("Arn");
  return { id: value["Fn::GetAtt"]![0], suffix: String(suffix) };
}

/** The key secrets each function is bound to: the feeds never hash identity numbers. */
const keySecretsOf: Record<string, string[]> = {
  Api: ["SESSION_KEYS", "CURSOR_KEYS", "API_KEY_HASH_KEYS", "IDENTITY_HASH_KEYS", "WEBHOOK_SECRET_KEYS"],
  Feeds: ["SESSION_KEYS", "CURSOR_KEYS", "API_KEY_HASH_KEYS"],
};

const DATA_PLANE_WRITES = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"];

type FoundResource = CfnResource & { stack: StackFunction; id: string };

interface DashboardWidget {
  type: string;
  properties: { title?: string; metrics: unknown[][] };
}

/**
 * The dashboard body as JSON. It is a Fn::Join of JSON text and CloudFormation values (imports,
 * refs) that sit inside its strings; each value is written as «its JSON», quotes swapped for
 * apostrophes so the text still parses, and fromPlaceholder turns it back.
 */
function renderDashboard(body: unknown): { widgets: DashboardWidget[] } {
  const join = (body as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (!join) return JSON.parse(body as string);
  return JSON.parse(
    join[1]
      .map((part) => (typeof part === "string" ? part : `«${JSON.stringify(part).replaceAll('"', "'")}»`))
      .join(join[0]),
  );
}
const fromPlaceholder = (value: string): unknown => {
  const match = /^«(.*)»$/.exec(value);
  return match ? JSON.parse(match[1]!.replaceAll("'", '"')) : value;
};

/** IAM's StringLike: `*` any run of characters, `?` one, everything else literal. */
const stringLike = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .split("")
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("")}$`,
  ).test(value);

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

    it("runs the bundled handler on nodejs22.x / arm64 (the API's sharp is the staged arm64 build)", () => {
      const fn = resourceOf(template(), "AWS::Lambda::Function", functionId);
      expect(fn.Properties).toMatchObject({ Handler: handler, Runtime: "nodejs22.x", Architectures: ["arm64"] });
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

    it("is bound to exactly the key secrets it uses, one Config.Secret per purpose", () => {
      const env = environmentOf(template(), functionId);
      const bound = KEY_SECRET_NAMES.filter((name) => env[`SST_Secret_value_${name}`] === "__FETCH_FROM_SSM__");
      expect(bound).toEqual(keySecretsOf[functionId]);
      expect(Object.keys(env).filter((name) => name.startsWith("SST_Secret_value_"))).toHaveLength(bound.length);
      // What lambda/secrets.ts reads to find the parameters (SST's own path layout).
      expect(env).toMatchObject({
        SST_APP: "fintech-platform",
        SST_STAGE: stage,
        SST_SSM_PREFIX: `/sst/fintech-platform/${stage}/`,
      });
      const ssm = JSON.stringify(
        statementsFor(template(), functionId).filter((s) => actionsOf(s).includes("ssm:GetParameters")),
      );
      for (const name of KEY_SECRET_NAMES)
        expect(ssm.includes(`/sst/fintech-platform/${stage}/Secret/${name}/value`)).toBe(bound.includes(name));
      expect(ssm).not.toContain("JWT_SECRET");
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
        // The feeds' lease writes name the table alone (items are written there, not in an index).
        expect(targets).toEqual(
          statement.Condition
            ? [{ id: tableId(), suffix: "" }]
            : [
                { id: tableId(), suffix: "" },
                { id: tableId(), suffix: "/index/*" },
              ],
        );
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
      else
        expect(JSON.stringify(exportedValue(built.template(Api), JSON.parse(value)["Fn::Join"][1][1]))).toBe(
          `{"Ref":"${secret.id}"}`,
        );
    });

    it("ships a minified bundle with zod's English messages only and no second AWS SDK", () => {
      const fn = resourceOf(template(), "AWS::Lambda::Function", functionId);
      // Built for arm64, the architecture it runs on.
      expect(fn.Properties!.Architectures).toEqual(["arm64"]);
      const asset = (fn.Properties!.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "");
      const file = path.join(built.app.outdir, `asset.${asset}`, `${handler.replace(/\.handler$/, "")}.mjs`);
      expect(existsSync(file), file).toBe(true);
      // The entry and the chunks beside it (the bundle is code-split: infra/bundling.ts). Booleans,
      // so that a failure does not print megabytes of minified code.
      const chunks = readdirSync(path.dirname(file)).filter((name) => name.endsWith(".mjs"));
      const bundle = chunks.map((name) => readFileSync(path.join(path.dirname(file), name), "utf8")).join("\n");
      expect(bundle.includes("Invalid input"), "zod's English locale").toBe(true);
      expect(bundle.includes("Entrada inválida"), "es, one of the 48 others").toBe(false);
      expect(bundle.includes("Ungültige Eingabe"), "de").toBe(false);
      // Not SST's runtime client (sst/node/config brings its own, older AWS SDK)...
      expect(bundle.includes("Cannot access bound resources"), "sst/node/config").toBe(false);
      // ...and no STS/SSO clients of the default credential chain (Lambda's credentials are in the environment).
      expect(bundle.includes("AWSSecurityTokenServiceV20110615"), "STS client").toBe(false);
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
      {
        actions: [...BUCKET_ACTIONS],
        targets: [
          { id: kyc, suffix: "" },
          { id: settlements, suffix: "" },
        ],
      },
      { actions: [...KYC_OBJECT_ACTIONS], targets: [{ id: kyc, suffix: "/*" }] },
      { actions: [...API_SETTLEMENT_INCOMING_ACTIONS], targets: [{ id: settlements, suffix: `/${INCOMING_PREFIX}*` }] },
      { actions: [...API_SETTLEMENT_RESULT_ACTIONS], targets: [{ id: settlements, suffix: `/${RESULTS_PREFIX}*` }] },
      {
        actions: [...COMPLIANCE_EXPORT_ACTIONS],
        targets: [{ id: settlements, suffix: `/${COMPLIANCE_EXPORT_PREFIX}*` }],
      },
    ]);
    // Nothing that rewrites or removes evidence: no deletes, no ACL or bucket policy changes.
    for (const action of actions.filter((a) => a.startsWith("s3:"))) {
      expect(action).not.toMatch(/Delete|Acl|Policy|\*/);
    }
    // Settlement files: uploads and reads under incoming/ (the console's presigned POSTs, the nightly
    // check on demand), results written and read under results/; nothing elsewhere in the bucket.
    expect(API_SETTLEMENT_INCOMING_ACTIONS).toEqual(["s3:PutObject", "s3:GetObject", "s3:GetObjectVersion"]);
    expect(API_SETTLEMENT_RESULT_ACTIONS).toEqual(["s3:GetObject", "s3:PutObject"]);
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
    const defaults = loadConfig({});
    expect(defaults.FEED_MAX_SECONDS).toBeLessThanOrEqual(FEEDS_TIMEOUT_SECONDS / 2);
    expect(defaults.FEED_HEARTBEAT_MS).toBeLessThanOrEqual(15_000);
  });

  it("lets the feeds read the table and write only their stream leases (partition key STREAMLEASE#...), no S3", () => {
    const statements = statementsFor(built.template(Feeds), "Feeds");
    expect(statements.flatMap(actionsOf)).toEqual(expect.arrayContaining(["dynamodb:Query", "dynamodb:GetItem"]));
    const writes = statements.filter((statement) =>
      actionsOf(statement).some((action) => DATA_PLANE_WRITES.includes(action)),
    );
    expect(writes).toHaveLength(1);
    const [leases] = writes;
    expect(actionsOf(leases!)).toEqual([...STREAM_LEASE_WRITE_ACTIONS]);
    expect(STREAM_LEASE_WRITE_ACTIONS).not.toContain("dynamodb:BatchWriteItem");
    expect(leases!.Effect).toBe("Allow");
    expect(resourcesOf(leases!).map((resource) => arnTarget(storage(), resource))).toEqual([
      { id: tableId(), suffix: "" },
    ]);
    // ForAllValues: every partition key the request touches must match; IAM's LeadingKeys is the partition key.
    expect(leases!.Condition).toEqual({
      "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [`${STREAM_LEASE_PREFIX}*`] },
    });
    const [pattern] = (leases!.Condition as Record<string, Record<string, string[]>>)["ForAllValues:StringLike"]![
      "dynamodb:LeadingKeys"
    ]!;
    expect(stringLike(pattern!, streamLeasePartition("user-1"))).toBe(true);
    for (const other of ["USER#user-1", "ACCOUNT#acc-1", "OUTBOX#2026", "streamlease#user-1", "XSTREAMLEASE#user-1"])
      expect(stringLike(pattern!, other), other).toBe(false);
    expect(statements.flatMap(actionsOf).filter((action) => action.startsWith("s3:"))).toEqual([]);
  });

  describe("payment worker", () => {
    const template = () => built.template(Api);
    const queue = () => resourceOf(template(), "AWS::SQS::Queue", "PaymentSteps");
    const deadLetters = () => resourceOf(template(), "AWS::SQS::Queue", "PaymentStepDeadLetters");
    const queueArn = () => ({ "Fn::GetAtt": [queue().id, "Arn"] });
    const sqsStatements = (functionId: string) =>
      statementsFor(template(), functionId).filter((s) => actionsOf(s).some((a) => a.startsWith("sqs:")));

    it("has an encrypted, TLS-only step queue whose failing messages go to a dead-letter queue", () => {
      expect(queue().Properties).toMatchObject({
        VisibilityTimeout: PAYMENT_STEP_VISIBILITY_SECONDS,
        SqsManagedSseEnabled: true,
        RedrivePolicy: {
          deadLetterTargetArn: { "Fn::GetAtt": [deadLetters().id, "Arn"] },
          maxReceiveCount: PAYMENT_STEP_MAX_RECEIVES,
        },
      });
      expect(PAYMENT_STEP_VISIBILITY_SECONDS).toBeGreaterThanOrEqual(6 * PAYMENT_WORKER_TIMEOUT_SECONDS);
      expect(deadLetters().Properties).toMatchObject({
        MessageRetentionPeriod: PAYMENT_DLQ_RETENTION_DAYS * 86_400,
        SqsManagedSseEnabled: true,
      });
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

    it("consumes the queue with the worker: batches, partial failures, bounded concurrency", () => {
      const worker = resourceOf(template(), "AWS::Lambda::Function", "PaymentWorker");
      expect(worker.Properties).toMatchObject({
        Handler: "packages/functions/src/lambda/payment-worker.handler",
        Runtime: "nodejs22.x",
        Timeout: PAYMENT_WORKER_TIMEOUT_SECONDS,
      });
      const mappings = Object.values(template().findResources("AWS::Lambda::EventSourceMapping"))
        .map((mapping) => mapping.Properties)
        .filter((mapping) => JSON.stringify(mapping.EventSourceArn) === JSON.stringify(queueArn()));
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

    it("runs the sweeper on the EventBridge schedule of infra/resources, every minute", () => {
      const sweeper = resourceOf(template(), "AWS::Lambda::Function", "PaymentSweeper");
      expect(sweeper.Properties).toMatchObject({ Handler: "packages/functions/src/lambda/payment-sweeper.handler" });
      // Other schedules share the stack (the mail retry, stacks/Mail.ts): the sweeper's rule is the
      // one that invokes it.
      const invokesSweeper = (rule: Record<string, unknown>) =>
        ((rule.Targets ?? []) as { Arn: unknown }[]).some(
          (target) => JSON.stringify(target.Arn) === JSON.stringify({ "Fn::GetAtt": [sweeper.id, "Arn"] }),
        );
      const rules = Object.values(template().findResources("AWS::Events::Rule"))
        .map((rule) => rule.Properties as Record<string, unknown>)
        .filter(invokesSweeper);
      expect(schedules.paymentSweeper.cron).toBe("rate(1 minute)");
      expect(rules).toEqual([
        expect.objectContaining({
          ScheduleExpression: schedules.paymentSweeper.cron,
          State: "ENABLED",
          Targets: [
            expect.objectContaining({
              Arn: { "Fn::GetAtt": [sweeper.id, "Arn"] },
              RetryPolicy: { MaximumRetryAttempts: 0 },
            }),
          ],
        }),
      ]);
      template().hasResourceProperties("AWS::Lambda::Permission", {
        Action: "lambda:InvokeFunction",
        Principal: "events.amazonaws.com",
        FunctionName: { "Fn::GetAtt": [sweeper.id, "Arn"] },
      });
    });

    it("gives the API the queue URL and sqs:SendMessage on that queue only; the feeds nothing of it", () => {
      expect(PAYMENT_QUEUE_URL_VARIABLE).toBe(QUEUE_URL_THE_FUNCTIONS_READ);
      expect(environmentOf(template(), "Api")[PAYMENT_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
      // The API also sends to the integrity check's queue (stacks/IntegrityJobs.test.ts): sends only, everywhere.
      expect(sqsStatements("Api").map((s) => ({ actions: actionsOf(s), resources: resourcesOf(s) }))).toContainEqual({
        actions: [...PAYMENT_QUEUE_SEND_ACTIONS],
        resources: [queueArn()],
      });
      for (const statement of sqsStatements("Api")) expect(actionsOf(statement)).toEqual(["sqs:SendMessage"]);
      expect(PAYMENT_QUEUE_SEND_ACTIONS).toEqual(["sqs:SendMessage"]);
      expect(environmentOf(built.template(Feeds), "Feeds")).not.toHaveProperty(PAYMENT_QUEUE_URL_VARIABLE);
      expect(
        statementsFor(built.template(Feeds), "Feeds")
          .flatMap(actionsOf)
          .filter((a) => a.startsWith("sqs:")),
      ).toEqual([]);
    });

    it("lets the worker receive, delete and send on the step queue and write the table; the sweeper reads, claims due markers and sends", () => {
      const worker = sqsStatements("PaymentWorker");
      expect(worker.flatMap(actionsOf)).toEqual(
        expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:SendMessage"]),
      );
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
      // Its one write is the claim on a due marker, and IAM holds it to the markers' partitions.
      const sweeperWrites = statementsFor(template(), "PaymentSweeper").filter((s) =>
        actionsOf(s).some((a) => DATA_PLANE_WRITES.includes(a)),
      );
      expect(sweeperWrites.map(actionsOf)).toEqual([[...SWEEPER_TABLE_WRITE_ACTIONS]]);
      expect(SWEEPER_TABLE_WRITE_ACTIONS).toEqual(["dynamodb:UpdateItem"]);
      const claim = sweeperWrites[0]!;
      expect(resourcesOf(claim).map((resource) => arnTarget(storage(), resource))).toEqual([
        { id: tableId(), suffix: "" },
      ]);
      expect(claim.Condition).toEqual({
        "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [`${DUE_PARTITION_PREFIX}*`] },
      });
      expect(stringLike(`${DUE_PARTITION_PREFIX}*`, duePartition(3))).toBe(true);
      expect(stringLike(`${DUE_PARTITION_PREFIX}*`, paymentPartition("p-1"))).toBe(false);
      for (const functionId of ["PaymentWorker", "PaymentSweeper"]) {
        expect(environmentOf(template(), functionId)[PAYMENT_QUEUE_URL_VARIABLE]).toEqual({ Ref: queue().id });
        expect(
          statementsFor(template(), functionId)
            .flatMap(actionsOf)
            .filter((a) => a.startsWith("s3:")),
        ).toEqual([]);
      }
    });

    it("alarms when a step lands in the dead-letter queue", () => {
      const topic = resourceOf(built.template(Alerts), "AWS::SNS::Topic", "Alarms");
      const alarm = resourceOf(template(), "AWS::CloudWatch::Alarm", "PaymentStepDeadLettersAlarmsDepth");
      expect(alarm.Properties).toMatchObject({
        Namespace: "AWS/SQS",
        MetricName: "ApproximateNumberOfMessagesVisible",
        Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [deadLetters().id, "QueueName"] } }],
        Threshold: 1,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
      });
      expect(exportedValue(built.template(Alerts), (alarm.Properties!.AlarmActions as unknown[])[0])).toEqual({
        Ref: topic.id,
      });
    });

    it("counts parked payments from the worker's log lines and alarms on the first", () => {
      const worker = resourceOf(template(), "AWS::Lambda::Function", "PaymentWorker");
      const filter = resourceOf(template(), "AWS::Logs::MetricFilter", "PaymentsParkedFilter");
      expect(filter.Properties).toMatchObject({
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: worker.id }]] },
        FilterPattern: `{ $.message = "${PAYMENT_PARKED_LOG_MESSAGE}" }`,
        MetricTransformations: [
          { MetricNamespace: parkedPaymentsNamespace(stage), MetricName: PARKED_PAYMENTS_METRIC, MetricValue: "1" },
        ],
      });
      expect(filter.DependsOn).toEqual(expect.arrayContaining([worker.id]));
      const alarm = resourceOf(template(), "AWS::CloudWatch::Alarm", "PaymentsParkedAlarmsParked");
      expect(alarm.Properties).toMatchObject({
        Namespace: parkedPaymentsNamespace(stage),
        MetricName: PARKED_PAYMENTS_METRIC,
        Statistic: "Sum",
        Threshold: 1,
      });
    });

    it("holds a step's lease longer than the worker may run, so a step still running is never taken over", () => {
      expect(PAYMENT_WORKER_TIMEOUT_SECONDS * 1000).toBeLessThan(STEP_LEASE_MS);
      expect(resourceOf(template(), "AWS::Lambda::Function", "PaymentWorker").Properties!.Timeout).toBe(
        PAYMENT_WORKER_TIMEOUT_SECONDS,
      );
    });
  });

  describe("the whole app", () => {
    const STACKS = [Alerts, Storage, Api, Feeds, Web, Dashboard];
    const stackName = (stack: StackFunction) => (stack as { name: string }).name;

    /** Every resource of `type` in every stack of the app. */
    function resourcesOfType(type: string): FoundResource[] {
      return STACKS.flatMap((stack) =>
        Object.entries(built.template(stack).findResources(type) as Record<string, CfnResource>).map(
          ([id, resource]) => ({ stack, id, ...resource }),
        ),
      );
    }
    /** The app's own functions (CDK's and SST's helper functions for deploy-time custom resources aside). */
    const appFunctions = () =>
      resourcesOfType("AWS::Lambda::Function").filter((fn) => String(fn.Properties?.Handler).startsWith("packages/"));
    const alarmsIn = (stack: StackFunction) =>
      resourcesOfType("AWS::CloudWatch::Alarm")
        .filter((alarm) => alarm.stack === stack)
        .map((alarm) => alarm.Properties!);
    const dimensionsOf = (alarm: Record<string, unknown>) =>
      Object.fromEntries(
        ((alarm.Dimensions ?? []) as { Name: string; Value: unknown }[]).map(({ Name, Value }) => [Name, Value]),
      );
    const topicId = () => resourceOf(built.template(Alerts), "AWS::SNS::Topic", "Alarms").id;
    /** A value as the producing stack has it, following a cross-stack import. */
    const local = (value: unknown): unknown => {
      const name = (value as { "Fn::ImportValue"?: string } | null)?.["Fn::ImportValue"];
      if (name === undefined) return value;
      const producer = STACKS.find((stack) =>
        JSON.stringify(built.template(stack).toJSON().Outputs ?? {}).includes(`"Name":"${name}"`),
      );
      expect(producer, name).toBeDefined();
      return exportedValue(built.template(producer!), value);
    };
    /** Every dead-letter queue: redrive targets and functions' failure destinations. */
    const deadLetterQueues = () => {
      const targets = [
        ...resourcesOfType("AWS::SQS::Queue").map(
          (queue) =>
            (queue.Properties?.RedrivePolicy as { deadLetterTargetArn?: unknown } | undefined)?.deadLetterTargetArn,
        ),
        ...appFunctions().map(
          (fn) => (fn.Properties?.DeadLetterConfig as { TargetArn?: unknown } | undefined)?.TargetArn,
        ),
      ].filter((arn) => arn !== undefined);
      const ids = new Set(targets.map((arn) => (arn as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0]));
      return resourcesOfType("AWS::SQS::Queue").filter((queue) => ids.has(queue.id));
    };

    it(
      production
        ? "reserves concurrency: a ceiling for the feeds, floors for the API and the payment worker, leaving the unreserved pool AWS requires"
        : "reserves no concurrency on a preview (a new account's small quota would refuse any reservation)",
      () => {
        const { concurrency } = deploySettings(stage, {});
        const reservation = (stack: StackFunction, id: string) =>
          resourceOf(built.template(stack), "AWS::Lambda::Function", id).Properties!.ReservedConcurrentExecutions;
        expect(reservation(Api, "Api")).toBe(concurrency.reserved.api ?? undefined);
        expect(reservation(Feeds, "Feeds")).toBe(concurrency.reserved.feeds ?? undefined);
        expect(reservation(Api, "PaymentWorker")).toBe(concurrency.reserved.paymentWorker ?? undefined);
        const reserved = appFunctions().filter((fn) => fn.Properties!.ReservedConcurrentExecutions !== undefined);
        if (!production) {
          expect(reserved).toEqual([]);
          return;
        }
        expect(concurrency.accountLimit).toBe(DEFAULT_ACCOUNT_CONCURRENCY_LIMIT);
        expect(concurrency.reserved).toEqual({ api: 300, paymentWorker: 10, webhookDispatcher: 5, feeds: 485 });
        // Only these four reserve; the rest share what is left, which AWS keeps at 100 or more.
        expect(reserved.map((fn) => fn.id.replace(/[0-9A-F]{8}$/, "")).sort()).toEqual([
          "Api",
          "Feeds",
          "PaymentWorker",
          "WebhookDispatcher",
        ]);
        const total = reserved.reduce((sum, fn) => sum + Number(fn.Properties!.ReservedConcurrentExecutions), 0);
        expect(concurrency.accountLimit - total).toBeGreaterThanOrEqual(LAMBDA_MIN_UNRESERVED);
        // The SQS pollers never invoke the worker more often than its reservation admits.
        const worker = resourceOf(built.template(Api), "AWS::Lambda::Function", "PaymentWorker");
        const mapping = Object.values(built.template(Api).findResources("AWS::Lambda::EventSourceMapping")).find(
          (candidate) => JSON.stringify(candidate.Properties.FunctionName) === JSON.stringify({ Ref: worker.id }),
        );
        expect(mapping?.Properties.ScalingConfig.MaximumConcurrency).toBeLessThanOrEqual(
          Number(worker.Properties!.ReservedConcurrentExecutions),
        );
      },
    );

    it("runs every function on arm64, the feeds at the memory bench:feeds prices", () => {
      expect(appFunctions().length).toBeGreaterThanOrEqual(6);
      for (const fn of appFunctions()) expect(fn.Properties!.Architectures, fn.id).toEqual(["arm64"]);
      const feeds = resourceOf(built.template(Feeds), "AWS::Lambda::Function", "Feeds");
      expect(feeds.Properties).toMatchObject({
        MemorySize: FEEDS_FUNCTION.memoryMB,
        Architectures: [FEEDS_FUNCTION.architecture],
      });
    });

    it("alarms on errors and throttles of every function (and 5xx of the function URLs), into the stage's topic", () => {
      const urls = resourcesOfType("AWS::Lambda::Url").map(
        (url) =>
          `${stackName(url.stack)}/${(url.Properties!.TargetFunctionArn as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0]}`,
      );
      expect(urls).toHaveLength(2);
      for (const fn of appFunctions()) {
        const alarms = alarmsIn(fn.stack).filter(
          (alarm) =>
            alarm.Namespace === "AWS/Lambda" &&
            JSON.stringify(dimensionsOf(alarm).FunctionName) === JSON.stringify({ Ref: fn.id }),
        );
        const metrics = alarms.map((alarm) => alarm.MetricName);
        expect(metrics, fn.id).toEqual(expect.arrayContaining(["Errors", "Throttles"]));
        if (urls.includes(`${stackName(fn.stack)}/${fn.id}`)) expect(metrics, fn.id).toContain("Url5xxCount");
        for (const alarm of alarms) {
          expect(alarm).toMatchObject({
            Period: ALARM_PERIOD_MINUTES * 60,
            TreatMissingData: "notBreaching",
            ComparisonOperator: "GreaterThanOrEqualToThreshold",
          });
          expect(local((alarm.AlarmActions as unknown[])[0])).toEqual({ Ref: topicId() });
        }
        expect(alarms.find((alarm) => alarm.MetricName === "Errors")).toMatchObject({
          Statistic: "Sum",
          Threshold: ERRORS_PER_PERIOD,
        });
        expect(alarms.find((alarm) => alarm.MetricName === "Throttles")).toMatchObject({
          Statistic: "Sum",
          Threshold: THROTTLES_PER_PERIOD,
        });
      }
      const api = alarmsIn(Api).filter(
        (alarm) =>
          JSON.stringify(dimensionsOf(alarm).FunctionName) ===
          JSON.stringify({ Ref: resourceOf(built.template(Api), "AWS::Lambda::Function", "Api").id }),
      );
      expect(api.find((alarm) => alarm.MetricName === "Url5xxCount")).toMatchObject({
        Statistic: "Sum",
        Threshold: FIVE_XX_PER_PERIOD,
      });
      expect(api.find((alarm) => alarm.MetricName === "Duration")).toMatchObject({
        ExtendedStatistic: "p99",
        Threshold: API_TIMEOUT_SECONDS * 1000 * DURATION_P99_SHARE_OF_TIMEOUT,
        EvaluationPeriods: 2,
      });
    });

    it(`alarms on the depth of every dead-letter queue, each ${production ? "retained" : "deleted"} with the stage`, () => {
      const queues = deadLetterQueues();
      expect(queues.map((queue) => queue.id.replace(/[0-9A-F]{8}$/, "")).sort()).toEqual(
        expect.arrayContaining(["KycObjectCreatedFailures", "PaymentStepDeadLetters"]),
      );
      for (const queue of queues) {
        expect(queue.DeletionPolicy, queue.id).toBe(production ? "Retain" : "Delete");
        const depth = alarmsIn(queue.stack).filter(
          (alarm) =>
            JSON.stringify(dimensionsOf(alarm).QueueName) === JSON.stringify({ "Fn::GetAtt": [queue.id, "QueueName"] }),
        );
        expect(depth, queue.id).toEqual([
          expect.objectContaining({
            Namespace: "AWS/SQS",
            MetricName: "ApproximateNumberOfMessagesVisible",
            Statistic: "Maximum",
            Threshold: DEAD_LETTERS_VISIBLE,
          }),
        ]);
        expect(local((depth[0]!.AlarmActions as unknown[])[0])).toEqual({ Ref: topicId() });
      }
    });

    it("alarms on the age of the oldest message of every consumed queue, the payment steps' beyond SQS's longest delay", () => {
      const queues = resourcesOfType("AWS::SQS::Queue");
      const sources = resourcesOfType("AWS::Lambda::EventSourceMapping").map((mapping) => ({
        stack: mapping.stack,
        source: local(mapping.Properties!.EventSourceArn) as { "Fn::GetAtt"?: [string, string] },
      }));
      const queueOf = ({ stack, source }: (typeof sources)[number]) => {
        const [id, attribute] = source["Fn::GetAtt"] ?? [];
        return attribute === "Arn" && queues.some((queue) => queue.stack === stack && queue.id === id) ? id : undefined;
      };
      const consumed = sources.flatMap((mapping) => {
        const id = queueOf(mapping);
        return id === undefined ? [] : [{ stack: mapping.stack, id }];
      });
      expect(consumed.length).toBeGreaterThan(0);
      // Every other source is the table's stream (mail delivery): it holds no messages to age, and a
      // source of a new kind fails here rather than going unwatched.
      for (const mapping of sources.filter((candidate) => queueOf(candidate) === undefined))
        expect(mapping.source).toEqual({ "Fn::GetAtt": [tableId(), "StreamArn"] });
      for (const { stack, id } of consumed) {
        const age = alarmsIn(stack).filter(
          (alarm) =>
            alarm.MetricName === "ApproximateAgeOfOldestMessage" &&
            JSON.stringify(dimensionsOf(alarm).QueueName) === JSON.stringify({ "Fn::GetAtt": [id, "QueueName"] }),
        );
        expect(age, id).toHaveLength(1);
        if (id.startsWith("PaymentSteps"))
          expect(age[0]).toMatchObject({
            Statistic: "Maximum",
            Threshold: MAX_DELAY_SECONDS + QUEUE_AGE_BEYOND_DELAY_SECONDS,
          });
      }
    });

    it("alarms on the account's Lambda executions in use, against a share of its limit", () => {
      const alarms = alarmsIn(Alerts).filter((alarm) => alarm.MetricName === "ConcurrentExecutions");
      expect(alarms).toEqual([
        expect.objectContaining({
          Namespace: "AWS/Lambda",
          Statistic: "Maximum",
          Threshold: Math.ceil(ACCOUNT_CONCURRENCY_SHARE * DEFAULT_ACCOUNT_CONCURRENCY_LIMIT),
          AlarmActions: [{ Ref: topicId() }],
        }),
      ]);
      expect(alarms[0]).not.toHaveProperty("Dimensions");
    });

    it("alarms on CloudFront's 5xx rate of the distribution (us-east-1)", () => {
      const distribution = resourceOf(built.template(Web), "AWS::CloudFront::Distribution", "WebDistribution");
      const alarms = alarmsIn(Web).filter((alarm) => alarm.Namespace === "AWS/CloudFront");
      expect(alarms).toEqual([
        expect.objectContaining({
          MetricName: "5xxErrorRate",
          Statistic: "Average",
          Threshold: CLOUDFRONT_5XX_RATE_PERCENT,
          EvaluationPeriods: CLOUDFRONT_5XX_PERIODS,
        }),
      ]);
      expect(dimensionsOf(alarms[0]!)).toEqual({ DistributionId: { Ref: distribution.id }, Region: "Global" });
      expect(local((alarms[0]!.AlarmActions as unknown[])[0])).toEqual({ Ref: topicId() });
    });

    it("shows every alarmed metric on one dashboard: functions, dead letters, queue ages, table and indexes, concurrency, CloudFront", () => {
      const dashboards = resourcesOfType("AWS::CloudWatch::Dashboard");
      expect(dashboards).toHaveLength(1);
      expect(dashboards[0]!.stack).toBe(Dashboard);
      const widgets = renderDashboard(dashboards[0]!.Properties!.DashboardBody).widgets.filter(
        (widget) => widget.type === "metric",
      );
      // Each graph's metrics as [namespace, name, dimensions resolved to the producing stack's value].
      const lines = widgets.flatMap((widget) =>
        widget.properties.metrics.map((line) => {
          const [namespace, name, ...rest] = line.filter((part) => typeof part === "string") as string[];
          const dimensions: Record<string, unknown> = {};
          for (let at = 0; at + 1 < rest.length; at += 2) dimensions[rest[at]!] = local(fromPlaceholder(rest[at + 1]!));
          const options = line.find((part) => typeof part === "object") as { region?: string } | undefined;
          return { title: widget.properties.title, namespace, name, dimensions, region: options?.region };
        }),
      );
      const sorted = (dimensions: Record<string, unknown>) =>
        JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
      const has = (namespace: string, name: string, dimensions: Record<string, unknown>) =>
        lines.some(
          (line) =>
            line.namespace === namespace && line.name === name && sorted(line.dimensions) === sorted(dimensions),
        );

      for (const fn of appFunctions()) {
        for (const metric of ["Errors", "Throttles"])
          expect(has("AWS/Lambda", metric, { FunctionName: { Ref: fn.id } }), `${fn.id} ${metric}`).toBe(true);
      }
      for (const queue of deadLetterQueues()) {
        expect(
          has("AWS/SQS", "ApproximateNumberOfMessagesVisible", {
            QueueName: { "Fn::GetAtt": [queue.id, "QueueName"] },
          }),
          queue.id,
        ).toBe(true);
      }
      const paymentSteps = resourceOf(built.template(Api), "AWS::SQS::Queue", "PaymentSteps");
      expect(
        has("AWS/SQS", "ApproximateAgeOfOldestMessage", {
          QueueName: { "Fn::GetAtt": [paymentSteps.id, "QueueName"] },
        }),
      ).toBe(true);
      const table = { Ref: resourceOf(storage(), "AWS::DynamoDB::Table", appTable.id).id };
      for (const metric of ["ReadThrottleEvents", "WriteThrottleEvents"]) {
        expect(has("AWS/DynamoDB", metric, { TableName: table })).toBe(true);
        for (const index of appTable.globalIndexes)
          expect(
            has("AWS/DynamoDB", metric, { TableName: table, GlobalSecondaryIndexName: index.name }),
            index.name,
          ).toBe(true);
      }
      expect(has("AWS/Lambda", "ConcurrentExecutions", {})).toBe(true);
      const distribution = resourceOf(built.template(Web), "AWS::CloudFront::Distribution", "WebDistribution");
      const cloudFront = lines.filter((line) => line.namespace === "AWS/CloudFront");
      expect(cloudFront).toEqual([
        expect.objectContaining({ name: "5xxErrorRate", region: CLOUDFRONT_METRICS_REGION }),
      ]);
      expect(
        has("AWS/CloudFront", "5xxErrorRate", { DistributionId: { Ref: distribution.id }, Region: "Global" }),
      ).toBe(true);
      // One graph per watched thing, each titled.
      expect(new Set(widgets.map((widget) => widget.properties.title)).size).toBe(widgets.length);
    });
  });
});

describe("origin secret rotation", () => {
  const resolved = (rotating: boolean) => {
    const stack = new CdkStack(new CdkApp(), "Rotation");
    const secret = new Secret(stack, "OriginSecret", { generateSecretString: { passwordLength: 48 } });
    return JSON.stringify(stack.resolve(originProofValues(secret, rotating)));
  };

  it("sends and accepts the current secret only, outside a rotation", () => {
    const values = JSON.parse(resolved(false)) as { current: unknown; previous: unknown };
    expect(values.previous).toBeNull();
    expect(JSON.stringify(values.current)).toContain(":SecretString:::}}");
  });

  it("during a rotation accepts the previous version too, under references that changed (so CloudFormation resolves them again)", () => {
    const values = JSON.parse(resolved(true)) as { current: unknown; previous: unknown };
    expect(JSON.stringify(values.current)).toContain(":SecretString::AWSCURRENT:}}");
    expect(JSON.stringify(values.previous)).toContain(":SecretString::AWSPREVIOUS:}}");
  });
});

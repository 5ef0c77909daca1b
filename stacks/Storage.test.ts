import { resourceOf, synth, type StackFunction, type SynthesizedApp } from "./testing";
import type { App } from "sst/constructs";
import { Match, type Template } from "aws-cdk-lib/assertions";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket, toCreateTableInput } from "../infra/resources";
import { stagedSharp } from "../infra/native/sharp";
import {
  INCOMPLETE_UPLOAD_DAYS,
  KYC_OBJECT_FAILURE_RETENTION_DAYS,
  KYC_OBJECT_FUNCTION_ACTIONS,
  Storage,
} from "./Storage";
import {
  SETTLEMENT_RETENTION_DAYS,
  stageSettings,
  TABLE_BACKUP_RETENTION_DAYS,
  VAULT_LOCK_CHANGEABLE_DAYS,
} from "../infra/stage";
import { BACKUP_JOBS_FAILED, DEAD_LETTERS_VISIBLE, TABLE_THROTTLE_EVENTS_PER_PERIOD } from "./alarms";
import { TABLE_BACKUP_HOUR_UTC } from "./Backups";
import { Alerts } from "./Alerts";

// Generous: synthesis bundles every function, and the machine may be busy with other work.
const SYNTH_TIMEOUT_MS = 300_000;

const alarmsOf = (template: Template) =>
  Object.values(template.findResources("AWS::CloudWatch::Alarm")).map(
    (alarm) => alarm.Properties as Record<string, unknown>,
  );

/**
 * The app as sst.config.ts builds it (its default function props, removal policy...) with the
 * Storage stack and the Alerts stack it depends on alone: its template is the same, and the
 * other stacks' functions are not bundled for nothing (each bundle is seconds on a 2-core machine).
 */
async function storageOnly(app: App): Promise<void> {
  const { default: config } = await import("../sst.config");
  const onlyStorage: App = new Proxy(app, {
    get: (target, property) =>
      property === "stack"
        ? (stack: StackFunction) => {
            if (stack === Alerts || stack === Storage) target.stack(stack);
            return onlyStorage;
          }
        : Reflect.get(target, property, target),
  });
  await config.stacks(onlyStorage);
}

describe.each([
  { stage: "production", retained: true },
  { stage: "pr-42", retained: false },
])("Storage on stage $stage", ({ stage, retained }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage, stacks: storageOnly });
  }, SYNTH_TIMEOUT_MS);

  const template = () => built.template(Storage);
  const table = () => resourceOf(template(), "AWS::DynamoDB::Table", appTable.id);
  const kyc = () => resourceOf(template(), "AWS::S3::Bucket", kycDocumentsBucket.id);
  const settlements = () => resourceOf(template(), "AWS::S3::Bucket", settlementsBucket.id);

  it("builds the table from infra/resources exactly as the local bootstrap does", () => {
    const local = toCreateTableInput("unused");
    const props = table().Properties!;
    expect(props.KeySchema).toEqual(local.KeySchema.map(({ AttributeName, KeyType }) => ({ AttributeName, KeyType })));
    expect(props.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions));
    expect(props.AttributeDefinitions).toHaveLength(local.AttributeDefinitions.length);
    expect(props.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    expect(props.StreamSpecification).toEqual({
      StreamViewType: local.StreamSpecification?.StreamViewType ?? "missing",
    });
    expect(props.BillingMode).toBe(local.BillingMode);
    expect(props.TableName).toBe(`${stage}-fintech-platform-${appTable.id}`);
  });

  it("expires items on the documented TTL attribute, with PITR and AWS managed encryption", () => {
    expect(table().Properties).toMatchObject({
      TimeToLiveSpecification: { AttributeName: appTable.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
    // AWS managed KMS key: no customer key to pay for or lose.
    expect(table().Properties!.SSESpecification).not.toHaveProperty("KMSMasterKeyId");
  });

  it(`${retained ? "retains" : "deletes"} the data and the dead-letter queue when the stage is removed`, () => {
    const policy = retained ? "Retain" : "Delete";
    for (const resource of [
      table(),
      kyc(),
      settlements(),
      resourceOf(template(), "AWS::SQS::Queue", "KycObjectCreatedFailures"),
    ]) {
      expect(resource.DeletionPolicy, resource.id).toBe(policy);
      expect(resource.UpdateReplacePolicy, resource.id).toBe(policy);
    }
    expect(table().Properties!.DeletionProtectionEnabled).toBe(retained);
    // Emptying buckets on delete only where the stage is disposable.
    template().resourceCountIs("Custom::S3AutoDeleteObjects", retained ? 0 : 2);
  });

  it("keeps both buckets private, encrypted and TLS only", () => {
    for (const bucket of [kyc(), settlements()]) {
      expect(bucket.Properties, bucket.id).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
      });
      template().hasResourceProperties("AWS::S3::BucketPolicy", {
        Bucket: { Ref: bucket.id },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: "Deny",
              Action: "s3:*",
              Condition: { Bool: { "aws:SecureTransport": "false" } },
            }),
          ]),
        },
      });
    }
  });

  it("versions KYC documents, expiring old versions after the stage's days and aborting stale multipart uploads", () => {
    expect(kycDocumentsBucket.versioned).toBe(true);
    expect(kyc().Properties!.VersioningConfiguration).toEqual({ Status: "Enabled" });
    const days = stageSettings(stage).kycNoncurrentVersionDays;
    expect(days).toBe(retained ? 30 : 1);
    expect(kyc().Properties!.LifecycleConfiguration).toEqual({
      Rules: [
        {
          Id: "expire-noncurrent-versions",
          Status: "Enabled",
          NoncurrentVersionExpiration: { NoncurrentDays: days },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: INCOMPLETE_UPLOAD_DAYS },
        },
        { Id: "remove-expired-delete-markers", Status: "Enabled", ExpiredObjectDeleteMarker: true },
      ],
    });
  });

  it(`locks settlement files with S3 Object Lock${retained ? ": compliance mode, seven years by default" : ", without a default retention (the preview must stay removable)"}`, () => {
    expect(settlementsBucket.objectLock).toBe(true);
    expect(settlements().Properties!.VersioningConfiguration).toEqual({ Status: "Enabled" });
    expect(settlements().Properties!.ObjectLockEnabled).toBe(true);
    if (retained) {
      expect(settlements().Properties!.ObjectLockConfiguration).toEqual({
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: SETTLEMENT_RETENTION_DAYS } },
      });
      expect(SETTLEMENT_RETENTION_DAYS).toBe(7 * 365);
    } else {
      expect(stageSettings(stage).settlementRetention).toBeNull();
      expect(settlements().Properties).not.toHaveProperty("ObjectLockConfiguration");
    }
  });

  it(
    retained
      ? "backs the table up daily into a vault with a compliance-mode Vault Lock, kept 35 days"
      : "makes no backup plan or vault (a vault with recovery points would block removing the preview)",
    () => {
      if (!retained) {
        template().resourceCountIs("AWS::Backup::BackupVault", 0);
        template().resourceCountIs("AWS::Backup::BackupPlan", 0);
        return;
      }
      const vault = resourceOf(template(), "AWS::Backup::BackupVault", "TableBackupVault");
      expect(vault.DeletionPolicy).toBe("Retain");
      expect(vault.Properties!.LockConfiguration).toEqual({
        MinRetentionDays: TABLE_BACKUP_RETENTION_DAYS,
        // A lock with a grace period is compliance mode: fixed for good once it has passed.
        ChangeableForDays: VAULT_LOCK_CHANGEABLE_DAYS,
      });
      const plan = resourceOf(template(), "AWS::Backup::BackupPlan", "TableBackupPlan");
      expect(plan.Properties!.BackupPlan).toEqual({
        BackupPlanName: expect.any(String),
        BackupPlanRule: [
          expect.objectContaining({
            RuleName: "Daily",
            ScheduleExpression: `cron(0 ${TABLE_BACKUP_HOUR_UTC} * * ? *)`,
            Lifecycle: { DeleteAfterDays: TABLE_BACKUP_RETENTION_DAYS },
            TargetBackupVault: { "Fn::GetAtt": [vault.id, "BackupVaultName"] },
          }),
        ],
      });
      expect(TABLE_BACKUP_RETENTION_DAYS).toBe(35);
      const selection = resourceOf(template(), "AWS::Backup::BackupSelection", "TableBackupPlanTable");
      expect(selection.Properties!.BackupSelection).toMatchObject({
        Resources: [{ "Fn::GetAtt": [table().id, "Arn"] }],
      });
      expect(alarmsOf(template()).filter((alarm) => alarm.Namespace === "AWS/Backup")).toEqual([
        expect.objectContaining({
          MetricName: "NumberOfBackupJobsFailed",
          Dimensions: [{ Name: "BackupVaultName", Value: { "Fn::GetAtt": [vault.id, "BackupVaultName"] } }],
          Threshold: BACKUP_JOBS_FAILED,
        }),
      ]);
    },
  );

  it("alarms on read and write throttles of the table and of every index in infra/resources", () => {
    const throttles = alarmsOf(template()).filter((alarm) => alarm.Namespace === "AWS/DynamoDB");
    const watched = throttles.map((alarm) => {
      const dimensions = Object.fromEntries(
        (alarm.Dimensions as { Name: string; Value: unknown }[]).map(({ Name, Value }) => [Name, Value]),
      );
      expect(dimensions.TableName).toEqual({ Ref: table().id });
      expect(alarm).toMatchObject({
        Statistic: "Sum",
        Threshold: TABLE_THROTTLE_EVENTS_PER_PERIOD,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
      });
      return `${(dimensions.GlobalSecondaryIndexName as string | undefined) ?? "table"} ${String(alarm.MetricName)}`;
    });
    const targets = ["table", ...appTable.globalIndexes.map((index) => index.name)];
    expect(appTable.globalIndexes.length).toBeGreaterThan(0);
    expect(watched.sort()).toEqual(
      targets.flatMap((target) => [`${target} ReadThrottleEvents`, `${target} WriteThrottleEvents`]).sort(),
    );
  });

  it("declares no CORS in the buckets' own templates: no wildcard origin (Web sets the KYC rule)", () => {
    expect(kyc().Properties).not.toHaveProperty("CorsConfiguration");
    expect(settlements().Properties).not.toHaveProperty("CorsConfiguration");
  });

  it("sends the KYC bucket's ObjectCreated:Post (presigned browser uploads) to the KYC object function, and nothing else", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    template().resourceCountIs("Custom::S3BucketNotifications", 2);
    template().hasResourceProperties("Custom::S3BucketNotifications", {
      BucketName: { Ref: kyc().id },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          { Events: ["s3:ObjectCreated:Post"], LambdaFunctionArn: { "Fn::GetAtt": [fn.id, "Arn"] } },
        ],
      },
    });
    // S3 may invoke it, for this bucket only.
    template().hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunction",
      FunctionName: { "Fn::GetAtt": [fn.id, "Arn"] },
      Principal: "s3.amazonaws.com",
      SourceArn: { "Fn::GetAtt": [kyc().id, "Arn"] },
    });
  });

  it("runs the KYC object handler with the staged arm64 sharp beside its bundle (arm64) and the table and bucket names", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    expect(fn.Properties).toMatchObject({
      Handler: "packages/functions/src/lambda/kyc-object.handler",
      Runtime: "nodejs22.x",
      Architectures: ["arm64"],
    });
    const variables = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.TABLE_NAME).toEqual({ Ref: table().id });
    expect(variables.KYC_BUCKET).toEqual({ Ref: kyc().id });
    const asset = (fn.Properties!.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "");
    const bundle = path.join(built.app.outdir, `asset.${asset}`);
    for (const { name } of stagedSharp("arm64")!.packages)
      expect(existsSync(path.join(bundle, "node_modules", name, "package.json")), name).toBe(true);
    expect(existsSync(path.join(bundle, "node_modules", "@img", "sharp-linux-arm64", "package.json"))).toBe(true);
    // sharp stays external: the bundle imports it (at the first picture check), it does not inline it.
    const code = path.join(bundle, "packages/functions/src/lambda");
    const files = readdirSync(code).filter((name) => name.endsWith(".mjs"));
    expect(files).toContain("kyc-object.mjs");
    expect(files.some((name) => /import\("sharp"\)/.test(readFileSync(path.join(code, name), "utf8")))).toBe(true);
  });

  it("keeps upload events the KYC object function failed on in an encrypted queue for a replay", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    const queue = resourceOf(template(), "AWS::SQS::Queue", "KycObjectCreatedFailures");
    expect(fn.Properties!.DeadLetterConfig).toEqual({ TargetArn: { "Fn::GetAtt": [queue.id, "Arn"] } });
    expect(queue.Properties).toMatchObject({
      MessageRetentionPeriod: KYC_OBJECT_FAILURE_RETENTION_DAYS * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    const queueName = JSON.stringify({ "Fn::GetAtt": [queue.id, "QueueName"] });
    const ofThisQueue = (alarm: Record<string, unknown>) =>
      JSON.stringify((alarm.Dimensions as { Value: unknown }[] | undefined)?.[0]?.Value) === queueName;
    expect(alarmsOf(template()).filter((alarm) => alarm.Namespace === "AWS/SQS" && ofThisQueue(alarm))).toEqual([
      expect.objectContaining({
        MetricName: "ApproximateNumberOfMessagesVisible",
        Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [queue.id, "QueueName"] } }],
        Threshold: DEAD_LETTERS_VISIBLE,
      }),
    ]);
  });

  it("refuses KYC object writes that are not encrypted with AES256", () => {
    for (const condition of [
      { Null: { "s3:x-amz-server-side-encryption": "true" } },
      { StringNotEquals: { "s3:x-amz-server-side-encryption": "AES256" } },
    ]) {
      template().hasResourceProperties("AWS::S3::BucketPolicy", {
        Bucket: { Ref: kyc().id },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: "Deny", Principal: { AWS: "*" }, Action: "s3:PutObject", Condition: condition }),
          ]),
        },
      });
    }
  });

  it("gives the KYC object function only what it does: KYC object reads and deletes, table data", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    const role = (fn.Properties!.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const statements = Object.values(template().findResources("AWS::IAM::Policy"))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]))
      .flatMap(
        (policy) =>
          policy.Properties.PolicyDocument.Statement as {
            Effect: string;
            Action: string | string[];
            Resource: unknown;
          }[],
      );
    const s3 = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith("s3:")));
    expect(s3).toHaveLength(1);
    expect([s3[0]!.Action].flat().sort()).toEqual([...KYC_OBJECT_FUNCTION_ACTIONS].sort());
    expect(JSON.stringify(s3[0]!.Resource)).toContain(kyc().id);
    expect(JSON.stringify(s3[0]!.Resource)).not.toContain(settlements().id);
    const dynamo = statements.filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith("dynamodb:")),
    );
    expect(dynamo.length).toBeGreaterThan(0);
    for (const statement of dynamo) expect(JSON.stringify(statement.Resource)).toContain(table().id);
    expect(
      statements.every((statement) => statement.Effect === "Allow" && ![statement.Action].flat().includes("*")),
    ).toBe(true);
  });
});

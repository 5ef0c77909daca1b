import { resourceOf, synth, type StackFunction, type SynthesizedApp } from "./testing";
import type { App } from "sst/constructs";
import { Match } from "aws-cdk-lib/assertions";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket, toCreateTableInput } from "../infra/spec";
import { SHARP_FILES } from "./native-modules";
import { KYC_OBJECT_FAILURE_RETENTION_DAYS, KYC_OBJECT_FUNCTION_ACTIONS, Storage } from "./Storage";

const SYNTH_TIMEOUT_MS = 60_000;

/**
 * The app as sst.config.ts builds it (its default function props, removal policy...) with the
 * Storage stack alone: Storage depends on no other stack, so its template is the same, and the
 * other stacks' functions are not bundled for nothing (each bundle is seconds on a 2-core machine).
 */
async function storageOnly(app: App): Promise<void> {
  const { default: config } = await import("../sst.config");
  const onlyStorage: App = new Proxy(app, {
    get: (target, property) =>
      property === "stack"
        ? (stack: StackFunction) => {
            if (stack === Storage) target.stack(Storage);
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

  it("builds the table from infra/spec exactly as the local bootstrap does", () => {
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

  it("expires items on the spec's TTL attribute, with PITR and AWS managed encryption", () => {
    expect(table().Properties).toMatchObject({
      TimeToLiveSpecification: { AttributeName: appTable.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
    // AWS managed KMS key: no customer key to pay for or lose.
    expect(table().Properties!.SSESpecification).not.toHaveProperty("KMSMasterKeyId");
  });

  it(`${retained ? "retains" : "deletes"} the data when the stage is removed`, () => {
    const policy = retained ? "Retain" : "Delete";
    for (const resource of [table(), kyc(), settlements()]) {
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

  it("versions settlement files only", () => {
    expect(settlements().Properties!.VersioningConfiguration).toEqual({ Status: "Enabled" });
    expect(kyc().Properties).not.toHaveProperty("VersioningConfiguration");
  });

  it("declares no CORS in the buckets' own templates: no wildcard origin (Web sets the KYC rule)", () => {
    expect(kyc().Properties).not.toHaveProperty("CorsConfiguration");
    expect(settlements().Properties).not.toHaveProperty("CorsConfiguration");
  });

  it("sends the KYC bucket's ObjectCreated:Post (presigned browser uploads) to the KYC object function, and nothing else", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    template().resourceCountIs("Custom::S3BucketNotifications", 1);
    template().hasResourceProperties("Custom::S3BucketNotifications", {
      BucketName: { Ref: kyc().id },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [{ Events: ["s3:ObjectCreated:Post"], LambdaFunctionArn: { "Fn::GetAtt": [fn.id, "Arn"] } }],
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

  it("runs the KYC object handler with sharp beside its bundle (x86_64) and the table and bucket names", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    expect(fn.Properties).toMatchObject({ Handler: "packages/functions/src/lambda/kyc-object.handler", Runtime: "nodejs22.x", Architectures: ["x86_64"] });
    const variables = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.TABLE_NAME).toEqual({ Ref: table().id });
    expect(variables.KYC_BUCKET).toEqual({ Ref: kyc().id });
    const asset = (fn.Properties!.Code as { S3Key: string }).S3Key.replace(/\.zip$/, "");
    const bundle = path.join(built.app.outdir, `asset.${asset}`);
    for (const name of SHARP_FILES) expect(existsSync(path.join(bundle, "node_modules", name, "package.json")), name).toBe(true);
    // sharp stays external: the bundle imports it, it does not inline it.
    expect(readFileSync(path.join(bundle, "packages/functions/src/lambda/kyc-object.mjs"), "utf8")).toMatch(/from"sharp"|from "sharp"/);
  });

  it("keeps upload events the KYC object function failed on in an encrypted queue for a replay", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    const queue = resourceOf(template(), "AWS::SQS::Queue", "KycObjectCreatedFailures");
    expect(fn.Properties!.DeadLetterConfig).toEqual({ TargetArn: { "Fn::GetAtt": [queue.id, "Arn"] } });
    expect(queue.Properties).toMatchObject({ MessageRetentionPeriod: KYC_OBJECT_FAILURE_RETENTION_DAYS * 24 * 3600, SqsManagedSseEnabled: true });
  });

  it("refuses KYC object writes that are not encrypted with AES256", () => {
    for (const condition of [{ Null: { "s3:x-amz-server-side-encryption": "true" } }, { StringNotEquals: { "s3:x-amz-server-side-encryption": "AES256" } }]) {
      template().hasResourceProperties("AWS::S3::BucketPolicy", {
        Bucket: { Ref: kyc().id },
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: "Deny", Principal: { AWS: "*" }, Action: "s3:PutObject", Condition: condition })]) },
      });
    }
  });

  it("gives the KYC object function only what it does: KYC object reads and deletes, table data", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "KycObjectCreated");
    const role = (fn.Properties!.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const statements = Object.values(template().findResources("AWS::IAM::Policy"))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[]);
    const s3 = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith("s3:")));
    expect(s3).toHaveLength(1);
    expect([s3[0]!.Action].flat().sort()).toEqual([...KYC_OBJECT_FUNCTION_ACTIONS].sort());
    expect(JSON.stringify(s3[0]!.Resource)).toContain(kyc().id);
    expect(JSON.stringify(s3[0]!.Resource)).not.toContain(settlements().id);
    const dynamo = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith("dynamodb:")));
    expect(dynamo.length).toBeGreaterThan(0);
    for (const statement of dynamo) expect(JSON.stringify(statement.Resource)).toContain(table().id);
    expect(statements.every((statement) => statement.Effect === "Allow" && ![statement.Action].flat().includes("*"))).toBe(true);
  });
});

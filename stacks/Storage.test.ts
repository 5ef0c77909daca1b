import { resourceOf, synth, type SynthesizedApp } from "./testing";
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket, toCreateTableInput } from "../infra/spec";
import { Storage } from "./Storage";

const SYNTH_TIMEOUT_MS = 60_000;

describe.each([
  { stage: "production", retained: true },
  { stage: "pr-42", retained: false },
])("Storage on stage $stage", ({ stage, retained }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
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
      StreamViewType: local.StreamSpecification.StreamViewType,
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

  it("adds no bucket notifications yet", () => {
    template().resourceCountIs("Custom::S3BucketNotifications", 0);
  });
});

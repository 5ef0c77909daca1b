import { RemovalPolicy } from "aws-cdk-lib";
import { TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { BucketEncryption } from "aws-cdk-lib/aws-s3";
import { Bucket, Table, type StackContext, type TableProps } from "sst/constructs";
import { appTable, keyAttributes, kycDocumentsBucket, settlementsBucket, type AppTableSpec } from "../infra/spec";
import { deploySettings } from "./settings";

/** SST Table props derived from infra/spec, so the cloud table and DynamoDB Local never drift. */
export function tablePropsFromSpec(spec: AppTableSpec = appTable): TableProps {
  return {
    fields: Object.fromEntries(keyAttributes(spec).map((name) => [name, "string" as const])),
    primaryIndex: { partitionKey: spec.partitionKey, sortKey: spec.sortKey },
    globalIndexes: Object.fromEntries(
      spec.globalIndexes.map((index) => [
        index.name,
        { partitionKey: index.partitionKey, sortKey: index.sortKey, projection: "all" as const },
      ]),
    ),
    timeToLiveAttribute: spec.ttlAttribute,
    stream: spec.stream,
  };
}

export function Storage({ stack, app }: StackContext) {
  const settings = deploySettings(app.stage);
  const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  const table = new Table(stack, appTable.id, {
    ...tablePropsFromSpec(),
    cdk: {
      table: {
        // SST already turns point-in-time recovery on for tables it creates; asserted in tests.
        encryption: TableEncryption.AWS_MANAGED,
        removalPolicy,
        deletionProtection: settings.retainData,
      },
    },
  });

  const privateBucket = {
    encryption: BucketEncryption.S3_MANAGED,
    removalPolicy,
    // Without this a preview stage could not be removed while it still holds objects.
    autoDeleteObjects: !settings.retainData,
  };

  const kycBucket = new Bucket(stack, kycDocumentsBucket.id, {
    blockPublicACLs: true,
    // Browser uploads need CORS naming the site's real origin, which only exists once the Web
    // stack (which depends on this one) has made the distribution: Web applies the rule.
    cors: false,
    cdk: { bucket: { ...privateBucket, versioned: kycDocumentsBucket.versioned } },
  });

  const settlements = new Bucket(stack, settlementsBucket.id, {
    blockPublicACLs: true,
    // SST's Bucket allows every origin unless told otherwise; settlement files never meet a browser.
    cors: false,
    cdk: { bucket: { ...privateBucket, versioned: settlementsBucket.versioned } },
  });
  // S3 ObjectCreated notifications on `settlementsBucket.incomingPrefix` start reconciliation;
  // they are added here together with their handler in the reconciliation issue.

  /** Names the functions need, as the environment packages/core/src/shared/config.ts reads. */
  const environment = {
    TABLE_NAME: table.tableName,
    KYC_BUCKET: kycBucket.bucketName,
    SETTLEMENTS_BUCKET: settlements.bucketName,
  };

  stack.addOutputs({
    TableName: table.tableName,
    KycBucket: kycBucket.bucketName,
    SettlementsBucket: settlements.bucketName,
  });

  return { table, kycBucket, settlementsBucket: settlements, environment };
}

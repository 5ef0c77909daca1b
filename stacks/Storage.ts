import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { AnyPrincipal, Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { BucketEncryption, EventType, ObjectLockRetention } from "aws-cdk-lib/aws-s3";
import { LambdaDestination } from "aws-cdk-lib/aws-s3-notifications";
import { Bucket, Function as SstFunction, Table, use, type StackContext, type TableProps } from "sst/constructs";
import { appTable, keyAttributes, kycDocumentsBucket, settlementsBucket, type AppTableSpec } from "../infra/resources";
import type { ObjectRetentionSettings } from "../infra/stage";
import { Alerts } from "./Alerts";
import { functionAlarms, tableThrottleAlarms } from "./alarms";
import { tableBackups } from "./Backups";
import { imageCheckingFunctionProps } from "./native-modules";
import { deadLetterQueue } from "./queues";
import { settlementObjectHandler, settlementProcessorRole } from "./Reconciliation";
import { deploySettings } from "./settings";

/** What the KYC object function does with the bucket's objects: read the upload, delete a refused one. */
export const KYC_OBJECT_FUNCTION_ACTIONS = ["s3:GetObject", "s3:DeleteObject"] as const;
export const KYC_OBJECT_TIMEOUT_SECONDS = 60;
/** How long an upload event the function failed on (after S3's async retries) is kept for a replay. */
export const KYC_OBJECT_FAILURE_RETENTION_DAYS = 14;
/** A multipart upload not completed within this many days is aborted and its parts deleted. */
export const INCOMPLETE_UPLOAD_DAYS = 1;

/** The bucket's default Object Lock retention as CDK takes it. */
export function objectLockRetention({ mode, days }: ObjectRetentionSettings): ObjectLockRetention {
  const duration = Duration.days(days);
  return mode === "COMPLIANCE" ? ObjectLockRetention.compliance(duration) : ObjectLockRetention.governance(duration);
}

/** SST Table props derived from infra/resources, so the cloud table and DynamoDB Local never drift. */
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
  const { alarmTopic } = use(Alerts);
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
    cdk: {
      bucket: {
        ...privateBucket,
        // Versions undo a mistaken delete or overwrite (the KYC object function deletes refused
        // uploads); they expire once they are no longer current, so erased documents do go.
        versioned: kycDocumentsBucket.versioned,
        lifecycleRules: [
          {
            id: "expire-noncurrent-versions",
            noncurrentVersionExpiration: Duration.days(settings.kycNoncurrentVersionDays),
            abortIncompleteMultipartUploadAfter: Duration.days(INCOMPLETE_UPLOAD_DAYS),
          },
          // A delete marker whose versions have all expired hides nothing: remove it too.
          { id: "remove-expired-delete-markers", expiredObjectDeleteMarker: true },
        ],
      },
    },
  });

  // Every KYC object is written encrypted (the API's puts and the presigned POST's policy both
  // ask for it): a write without the header, or with another algorithm, is refused outright.
  for (const condition of [
    { Null: { "s3:x-amz-server-side-encryption": "true" } },
    { StringNotEquals: { "s3:x-amz-server-side-encryption": "AES256" } },
  ]) {
    kycBucket.cdk.bucket.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ["s3:PutObject"],
        resources: [kycBucket.cdk.bucket.arnForObjects("*")],
        conditions: condition,
      }),
    );
  }

  const settlements = new Bucket(stack, settlementsBucket.id, {
    blockPublicACLs: true,
    // SST's Bucket allows every origin unless told otherwise. The console's uploads need CORS
    // naming the site's real origin, which only the Web stack knows: Web applies the rule.
    cors: false,
    cdk: {
      bucket: {
        ...privateBucket,
        versioned: settlementsBucket.versioned,
        // Evidence: with a default retention, no version can be deleted or overwritten in place
        // before its date, whoever asks (infra/stage.ts says why previews have none).
        objectLockEnabled: settlementsBucket.objectLock,
        objectLockDefaultRetention: settings.settlementRetention
          ? objectLockRetention(settings.settlementRetention)
          : undefined,
      },
    },
  });
  // A file under `settlementsBucket.incomingPrefix` starts its reconciliation; the processor role
  // may only drop files there (stacks/Reconciliation.ts).
  const reconciliation = settlementObjectHandler(stack, {
    table: table.cdk.table,
    bucket: settlements.cdk.bucket,
    environment: {
      TABLE_NAME: table.tableName,
      KYC_BUCKET: kycBucket.bucketName,
      SETTLEMENTS_BUCKET: settlements.bucketName,
    },
    alarmTopic,
    settings,
  });
  const settlementProcessor = settlementProcessorRole(stack, settlements.cdk.bucket, settings);

  /**
   * A browser's presigned POST into the KYC bucket (ObjectCreated:Post only: the API's own puts
   * of pictures it already checked are ObjectCreated:Put) runs the document checks. S3 invokes
   * asynchronously and retries; the handler is idempotent. Least privilege: read and delete KYC
   * objects, read and write the table, nothing else.
   */
  // Events still failing after Lambda's two async retries land here instead of vanishing: the
  // upload stays unprocessed until someone replays them (processing is idempotent).
  const kycObjectFailures = deadLetterQueue(stack, "KycObjectCreatedFailures", {
    retentionDays: KYC_OBJECT_FAILURE_RETENTION_DAYS,
    retain: settings.retainData,
    topic: alarmTopic,
    what: "KYC uploads whose checks kept failing",
  });
  const kycObjectFunction = new SstFunction(stack, "KycObjectCreated", {
    handler: "packages/functions/src/lambda/kyc-object.handler",
    ...imageCheckingFunctionProps(app),
    timeout: `${KYC_OBJECT_TIMEOUT_SECONDS} seconds`,
    // sharp decodes up to 40 MP pictures (the pixel budget, kyc/documents/image-budget.ts); memory
    // also buys CPU on Lambda.
    memorySize: "1536 MB",
    environment: {
      TABLE_NAME: table.tableName,
      KYC_BUCKET: kycBucket.bucketName,
      SETTLEMENTS_BUCKET: settlements.bucketName,
    },
    deadLetterQueue: kycObjectFailures,
  });
  table.cdk.table.grantReadWriteData(kycObjectFunction);
  kycObjectFunction.attachPermissions([
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...KYC_OBJECT_FUNCTION_ACTIONS],
      resources: [kycBucket.cdk.bucket.arnForObjects("*")],
    }),
  ]);
  kycBucket.cdk.bucket.addEventNotification(EventType.OBJECT_CREATED_POST, new LambdaDestination(kycObjectFunction));
  functionAlarms(stack, "KycObjectCreated", kycObjectFunction, alarmTopic, {
    timeoutSeconds: KYC_OBJECT_TIMEOUT_SECONDS,
  });

  // One alarm pair per index of infra/resources, so an index added there is watched too.
  tableThrottleAlarms(
    stack,
    appTable.id,
    table.cdk.table,
    appTable.globalIndexes.map((index) => index.name),
    alarmTopic,
  );
  const backups = settings.tableBackup
    ? tableBackups(stack, table.cdk.table, settings.tableBackup, alarmTopic)
    : undefined;

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
    SettlementProcessorRoleArn: settlementProcessor.roleArn,
  });

  return {
    table,
    kycBucket,
    settlementsBucket: settlements,
    environment,
    kycObjectFunction,
    kycObjectFailures,
    ...reconciliation,
    settlementProcessor,
    backups,
  };
}

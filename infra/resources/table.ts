/**
 * The one DynamoDB table, described once. The CDK stack (stacks/Storage.ts) and the local
 * bootstrap (infra/local) both derive their definitions from this object so they cannot drift.
 */
export const appTable = {
  /** Logical id in the stack and suffix of the physical name. */
  id: "Main",
  partitionKey: "pk",
  sortKey: "sk",
  globalIndexes: [
    { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    { name: "gsi2", partitionKey: "gsi2pk", sortKey: "gsi2sk" },
    { name: "gsi3", partitionKey: "gsi3pk", sortKey: "gsi3sk" },
  ],
  /** Items carrying this epoch-seconds attribute expire (rate-limit windows). */
  ttlAttribute: "expires_at",
  /** Streams feed asynchronous consumers (feeds, webhooks) in the cloud. */
  stream: "new_and_old_images",
} as const;

export type AppTableSpec = typeof appTable;

/** Every attribute used as a key anywhere, all strings. */
export function keyAttributes(spec: AppTableSpec = appTable): string[] {
  const names = new Set<string>([spec.partitionKey, spec.sortKey]);
  for (const index of spec.globalIndexes) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names];
}

/**
 * The CreateTable request for DynamoDB Local (and any plain SDK bootstrap). `withStream: false`
 * leaves the stream out: nothing reads it outside the cloud, and DynamoDB Local looks up its
 * stream bookkeeping on every write, a lookup that slows with every table ever created in the
 * process (the test suite creates hundreds), so the local bootstrap creates tables without one.
 */
export function toCreateTableInput(
  tableName: string,
  spec: AppTableSpec = appTable,
  { withStream = true }: { withStream?: boolean } = {},
) {
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST" as const,
    AttributeDefinitions: keyAttributes(spec).map((AttributeName) => ({
      AttributeName,
      AttributeType: "S" as const,
    })),
    KeySchema: [
      { AttributeName: spec.partitionKey, KeyType: "HASH" as const },
      { AttributeName: spec.sortKey, KeyType: "RANGE" as const },
    ],
    GlobalSecondaryIndexes: spec.globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: "HASH" as const },
        { AttributeName: index.sortKey, KeyType: "RANGE" as const },
      ],
      Projection: { ProjectionType: "ALL" as const },
    })),
    ...(withStream
      ? { StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" as const } }
      : {}),
  };
}

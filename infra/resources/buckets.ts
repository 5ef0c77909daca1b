/** The two S3 buckets, described once for the CDK stack and the local S3 emulator. */
export const kycDocumentsBucket = {
  id: "KycDocuments",
  localName: "kyc-documents",
  /** Browser uploads go straight to this bucket with presigned requests. */
  cors: {
    allowedMethods: ["GET", "PUT", "POST", "HEAD"] as const,
    allowedHeaders: ["*"],
    exposedHeaders: ["ETag"],
    maxAgeSeconds: 3000,
  },
  /** Every overwritten or deleted version is kept for a while (the stage's lifecycle expires them). */
  versioned: true,
  /** Keys: <userId>/<documentId>; uploads are validated by content, not by name. */
  maxObjectBytes: 5 * 1024 * 1024,
} as const;

export const settlementsBucket = {
  id: "Settlements",
  localName: "settlements",
  /** The reconciliation console's presigned POST of a settlement file (under incoming/ only: the API's signed policy). */
  cors: {
    allowedMethods: ["POST"] as const,
    allowedHeaders: ["*"],
    exposedHeaders: ["ETag"],
    maxAgeSeconds: 3000,
  },
  /** Settlement files are evidence; every overwritten version is kept. */
  versioned: true,
  /**
   * S3 Object Lock (write once, read many) on the bucket; the default retention of each
   * version is a stage setting (infra/stage.ts). S3 refuses a put into such a bucket without
   * Content-MD5 or a checksum header (e.g. `ChecksumAlgorithm: "CRC32"`): whoever drops files sends one.
   */
  objectLock: true,
  /** Nightly drops land under this prefix and start reconciliation. */
  incomingPrefix: "incoming/",
  incomingSuffix: ".csv",
} as const;

export const buckets = [kycDocumentsBucket, settlementsBucket] as const;

/** A bucket's browser-upload CORS rule, as both buckets declare it. */
export interface BucketCorsRule {
  allowedMethods: readonly string[];
  allowedHeaders: readonly string[];
  exposedHeaders: readonly string[];
  maxAgeSeconds: number;
}

/** CORS rules as the S3 emulator wants them (the XML of PutBucketCors). */
export function corsXml(origins: readonly string[], rule: BucketCorsRule = kycDocumentsBucket.cors): string {
  const lines = [
    ...origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`),
    ...rule.allowedMethods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`),
    ...rule.allowedHeaders.map((header) => `<AllowedHeader>${header}</AllowedHeader>`),
    ...rule.exposedHeaders.map((header) => `<ExposeHeader>${header}</ExposeHeader>`),
    `<MaxAgeSeconds>${rule.maxAgeSeconds}</MaxAgeSeconds>`,
  ];
  return `<CORSConfiguration><CORSRule>${lines.join("")}</CORSRule></CORSConfiguration>`;
}

/**
 * Which way a document picture travels. In the cloud the API runs on Lambda behind API Gateway,
 * and Lambda refuses a request over 6 MB before the app sees it; a binary body reaches it
 * base64-encoded (4/3 of its size) inside the event's JSON, so a multipart upload is only safe up
 * to about 4 MB (4 MB x 4/3 = 5.3 MB, plus the form's and the event's overhead). Pictures from
 * this size up (to the 5 MB limit) go straight to the bucket with a presigned POST instead, and
 * S3's ObjectCreated event runs the same checks.
 */
export const BUCKET_UPLOAD_FROM_BYTES = 4 * 1024 * 1024;

/** "api": multipart POST /kyc/upload with an immediate verdict; "bucket": presigned POST, verdict from the status. */
export type UploadPath = "api" | "bucket";

export const uploadPathFor = (bytes: number): UploadPath => (bytes >= BUCKET_UPLOAD_FROM_BYTES ? "bucket" : "api");

import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { CoreContext } from "../shared/context";
import { toDecimalString } from "../money/model";
import { csvField } from "./file-format";
import type { LineOutcome } from "./matcher";
import { DOWNLOAD_URL_SECONDS, RESULT_COLUMNS, RESULTS_PREFIX } from "./model";

/**
 * The per-line result CSV (docs/money-operations.md#reconciliation), streamed to the settlements
 * bucket as it is written: rows are gathered into parts of PART_BYTES and sent as a multipart
 * upload, so memory holds one part whatever the file's size. A result that fits one part is one
 * PutObject. Every request carries a CRC32 checksum: the bucket has Object Lock, which requires one.
 */

/** S3's smallest part but the last. */
const PART_BYTES = 5 * 1024 * 1024;

export const resultKey = (fileId: string) => `${RESULTS_PREFIX}${fileId}.csv`;

export function resultRow(outcome: LineOutcome): string {
  const money = (minor: number | null) =>
    minor === null || outcome.currency === null ? "" : toDecimalString(minor, outcome.currency);
  const difference =
    outcome.class === "fee_mismatch"
      ? (outcome.fileFeeMinor ?? 0) - (outcome.ledgerFeeMinor ?? 0)
      : outcome.fileAmountMinor === null && outcome.ledgerAmountMinor === null
        ? null
        : (outcome.fileAmountMinor ?? 0) - (outcome.ledgerAmountMinor ?? 0);
  return [
    outcome.line === null ? "" : String(outcome.line),
    outcome.reference,
    outcome.class,
    money(outcome.fileAmountMinor),
    money(outcome.ledgerAmountMinor),
    money(difference),
    outcome.paymentId ?? "",
  ]
    .map(csvField)
    .join(",");
}

export class ResultWriter {
  private chunks: string[] = [];
  private size = 0;
  private uploadId: string | undefined;
  private readonly parts: { PartNumber: number; ETag: string; ChecksumCRC32?: string }[] = [];
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: CoreContext,
    readonly key: string,
  ) {
    this.chunks.push(`${RESULT_COLUMNS.join(",")}\n`);
  }

  /** Adds one row; resolves when the writer may take more (a full part has been handed to S3). */
  async add(row: string): Promise<void> {
    const text = `${row}\n`;
    this.chunks.push(text);
    this.size += Buffer.byteLength(text);
    if (this.size >= PART_BYTES) {
      const body = this.chunks.join("");
      this.chunks = [];
      this.size = 0;
      await this.pending;
      this.pending = this.sendPart(body);
      await this.pending;
    }
  }

  private async sendPart(body: string): Promise<void> {
    const client = await this.ctx.storage.client();
    const bucket = this.ctx.storage.settlementsBucket;
    if (!this.uploadId) {
      const started = await client.send(
        new CreateMultipartUploadCommand({
          Bucket: bucket,
          Key: this.key,
          ContentType: "text/csv",
          ChecksumAlgorithm: "CRC32",
        }),
      );
      this.uploadId = started.UploadId;
    }
    const partNumber = this.parts.length + 1;
    const reply = await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: this.key,
        UploadId: this.uploadId,
        PartNumber: partNumber,
        Body: body,
        ChecksumAlgorithm: "CRC32",
      }),
    );
    this.parts.push({
      PartNumber: partNumber,
      ETag: reply.ETag ?? "",
      ...(reply.ChecksumCRC32 ? { ChecksumCRC32: reply.ChecksumCRC32 } : {}),
    });
  }

  /** Sends what is left and completes the object. */
  async finish(): Promise<void> {
    await this.pending;
    const client = await this.ctx.storage.client();
    const bucket = this.ctx.storage.settlementsBucket;
    const rest = this.chunks.join("");
    this.chunks = [];
    if (!this.uploadId) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: this.key,
          Body: rest,
          ContentType: "text/csv",
          ChecksumAlgorithm: "CRC32",
        }),
      );
      return;
    }
    if (rest.length > 0) await this.sendPart(rest);
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Gives up a multipart upload (the reconciliation failed): S3 keeps no parts. */
  async abort(): Promise<void> {
    if (!this.uploadId) return;
    const client = await this.ctx.storage.client();
    await client
      .send(
        new AbortMultipartUploadCommand({
          Bucket: this.ctx.storage.settlementsBucket,
          Key: this.key,
          UploadId: this.uploadId,
        }),
      )
      .catch(() => undefined);
  }
}

/** A short-lived link to a result CSV. */
export async function resultDownloadUrl(ctx: CoreContext, key: string): Promise<string> {
  return getSignedUrl(
    await ctx.storage.client(),
    new GetObjectCommand({ Bucket: ctx.storage.settlementsBucket, Key: key, ResponseContentType: "text/csv" }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
}

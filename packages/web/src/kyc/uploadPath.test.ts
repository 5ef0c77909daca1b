import { describe, expect, it } from "vitest";
import { KYC_LIMITS } from "@fintech/core/kyc/model";
import { BUCKET_UPLOAD_FROM_BYTES, uploadPathFor } from "./uploadPath";

/** Lambda's synchronous request payload limit, which the API's requests pass through in the cloud. */
const LAMBDA_REQUEST_LIMIT_BYTES = 6 * 1024 * 1024;
/** Room for the multipart boundaries and part headers and the event's JSON around the body. */
const ENVELOPE_BYTES = 64 * 1024;

describe("upload path", () => {
  it("keeps every multipart upload under Lambda's limit once base64-encoded into the event", () => {
    const largestMultipart = BUCKET_UPLOAD_FROM_BYTES - 1;
    expect(Math.ceil(largestMultipart / 3) * 4 + ENVELOPE_BYTES).toBeLessThan(LAMBDA_REQUEST_LIMIT_BYTES);
    // ...and the bucket path is still there for the pictures between it and the 5 MB limit.
    expect(BUCKET_UPLOAD_FROM_BYTES).toBeLessThan(KYC_LIMITS.maxFileBytes);
  });

  it("sends smaller pictures through the API and larger ones straight to the bucket", () => {
    expect(uploadPathFor(1)).toBe("api");
    expect(uploadPathFor(BUCKET_UPLOAD_FROM_BYTES - 1)).toBe("api");
    expect(uploadPathFor(BUCKET_UPLOAD_FROM_BYTES)).toBe("bucket");
    expect(uploadPathFor(KYC_LIMITS.maxFileBytes)).toBe("bucket");
  });
});

import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { DIDIT_MAX_BODY_BYTES, DiditVerifyInput, verifyDidit } from "@fintech/core/kyc/documents/didit";
import { IMAGE_TIME_BUDGET_SECONDS, MAX_DECODED_MEGAPIXELS } from "@fintech/core/kyc/documents/image-budget";
import { createUploadTicket, UploadTicketInput } from "@fintech/core/kyc/documents/presigned-upload";
import {
  ApplicantDocument,
  rejectionMessage,
  type RecordedDocument,
} from "@fintech/core/kyc/documents/record-document";
import { acceptDocumentUpload } from "@fintech/core/kyc/documents/upload";
import { UPLOAD_LEASE_WAIT_MS } from "@fintech/core/kyc/documents/upload-lease";
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, DocumentType, KYC_LIMITS, KYC_MESSAGES } from "@fintech/core/kyc/model";
import { badRequest, unprocessable } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, RETRY_AFTER, TAGS } from "../http/openapi";
import { jsonBody as parseJsonBody, parseWith } from "../http/validate";

/**
 * KYC document uploads (docs/product/kyc.md#calls; the design in
 * docs/kyc.md#documents-three-ways-in-one-set-of-checks), mounted at /api/v1/kyc beside the
 * applicant's and the reviewers' modules: POST /upload (multipart), POST /uploads/presign (a
 * presigned S3 POST for the browser; S3 ObjectCreated runs the checks) and POST /verify/didit
 * (base64 images). The checks and the record live in core (kyc/documents/: upload.ts,
 * presigned-upload.ts, didit.ts); this module parses, authorises and shapes replies. Middleware
 * is registered per path (see kyc-review.ts).
 */

/** Multipart overhead allowed on top of the 5 MB file (boundaries, part headers, document_type). */
const MULTIPART_SLACK_BYTES = 64 * 1024;
export const UPLOAD_MAX_BODY_BYTES = KYC_LIMITS.maxFileBytes + MULTIPART_SLACK_BYTES;
const FILE_NAME_MAX = 255;

const tooLargeReply = (c: Context<AppEnv>) =>
  c.json({ message: KYC_MESSAGES.fileTooLarge, code: "file_too_large" }, 413);

const UploadDocumentType = z.enum(DOCUMENT_TYPES, {
  error: `document_type must be one of ${DOCUMENT_TYPES.join(", ")}`,
});

/* ---------- replies ---------- */

const documentExample = {
  type: "passport",
  status: "verified",
  uploaded_at: "2026-01-15T09:34:00.000Z",
  verified_at: "2026-01-15T09:34:00.000Z",
  file_name: "passport.jpg",
  checks: {
    format: "jpeg",
    bytes: 482113,
    width: 1600,
    height: 1067,
    sharpness: 1155.6,
    glare: 0.004,
    phash: "955a6a3e6aa11fc8",
    passed: true,
    problems: [],
  },
  refusal: null,
  face_uploaded: false,
};

const UploadReply = z.object({
  success: z.literal(true),
  message: z
    .string()
    .describe('The success message of docs/product/kyc.md#messages: "<Document> verified successfully!"'),
  data: ApplicantDocument.extend({
    progress: z
      .number()
      .int()
      .describe("The submission's progress after this document (docs/product/kyc.md#progress-and-risk)"),
  }),
});

const TicketReply = z.object({
  data: z.object({
    url: z.string().describe("POST a multipart form here"),
    fields: z
      .record(z.string(), z.string())
      .describe("Every one of these as a form field, in any order, then the file as the last field, named `file`"),
    key: z.string().describe("The object's key: `<userId>/<submissionId>/<documentType>/<uuid>`"),
    expires_at: z.string().describe("The signed policy expires at this time (5 minutes)"),
  }),
});

const DiditReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    status: z
      .enum(["VERIFIED", "REJECTED"])
      .describe("VERIFIED: the document passed every check; REJECTED: see problems and upload again"),
    document_type: DocumentType,
    confidence: z
      .number()
      .describe(
        "Image quality confidence 0..1 (focus, glare, contrast). Not a face match and not an authenticity score",
      ),
    problems: z.array(z.string()),
    face_image_stored: z.boolean().describe("A face image was sent, checked as a JPEG/PNG and stored for the reviewer"),
    face_match: z
      .literal("not_performed")
      .describe("No face comparison is computed; a reviewer compares the face image with the document"),
    document: ApplicantDocument,
    progress: z.number().int(),
  }),
});

/* ---------- routes ---------- */

const REFUSALS = `Refusals (nothing is stored): 413 \`file_too_large\` "${KYC_MESSAGES.fileTooLarge}"; 415 \`wrong_image_format\` "${KYC_MESSAGES.wrongImageFormat}" for other image formats, for a file that only claims to be a JPG/PNG by its name or declared type (a text file named .png), for a declared content type that disagrees with the bytes, and for extensions other than jpg/jpeg/png; 415 \`not_an_image\` "${KYC_MESSAGES.notAnImage}" for anything else; 422 \`image_unreadable\` for a damaged picture; 422 \`image_too_large\` for a picture whose header declares more than ${MAX_DECODED_MEGAPIXELS} megapixels (refused before decoding); 422 \`image_check_timeout\` for a picture whose decode and checks take more than ${IMAGE_TIME_BUDGET_SECONDS} seconds.`;
const BUSY = `One upload per submission is checked at a time: another one waits up to ${UPLOAD_LEASE_WAIT_MS.api / 1000} s, then gets 409 \`kyc_submission_busy\` with Retry-After (nothing stored; send it again).`;

/** The 409s of an upload route, with the Retry-After that kyc_submission_busy carries. */
const uploadErrors = (spec: Parameters<typeof errors>[0]) => {
  const responses = errors(spec);
  const conflict = responses[409];
  if (conflict && !("$ref" in conflict)) responses[409] = { ...conflict, headers: RETRY_AFTER };
  return responses;
};
const QUALITY =
  "A readable picture that fails a quality check (resolution under 600 x 400, blur, glare, washed out) is stored and recorded as the type's current document with status `rejected` (audit trail; `documentVerified` REJECTED on the KYC stream).";

const uploadRoute = createRoute({
  method: "post",
  path: "/upload",
  operationId: "uploadKycDocument",
  summary: "Upload a KYC document picture",
  description: `Multipart form with \`file\` (JPG/JPEG/PNG, at most 5 MB) and \`document_type\` (one the submission's country accepts). The file is judged by its bytes (magic numbers), then decoded and checked (resolution, focus, glare) before the reply. ${REFUSALS} ${QUALITY} Such a rejection is answered 422 \`document_rejected\` with the problems in the message, so the applicant can retake the photo. ${BUSY} Needs a started KYC (409 \`kyc_not_started\`).`,
  tags: [TAGS.kyc],
  "x-stability": "beta",
  "x-complexity": "medium",
  security: authenticated,
  request: {
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file", "document_type"],
            properties: {
              file: { type: "string", format: "binary", description: "The picture: JPEG or PNG bytes, at most 5 MB" },
              document_type: { type: "string", enum: [...DOCUMENT_TYPES] },
            },
          },
          encoding: { file: { contentType: "image/jpeg, image/png" } },
          example: { document_type: "passport", file: "(the JPEG or PNG bytes)" },
        },
      },
    },
  },
  responses: {
    201: jsonReply("The document passed every check", "KycUploadReply", UploadReply, {
      success: true,
      message: KYC_MESSAGES.documentVerified(DOCUMENT_TYPE_LABELS.passport),
      data: { ...documentExample, progress: 75 },
    }),
    ...uploadErrors({
      400: ["validation_error", "unsupported_document_type", "empty_file"],
      401: true,
      409: ["kyc_not_started", "kyc_submission_closed", "kyc_submission_busy"],
      413: ["file_too_large"],
      415: ["wrong_image_format", "not_an_image"],
      422: ["document_rejected", "image_unreadable", "image_too_large", "image_check_timeout"],
      503: true,
    }),
  },
});

const presignRoute = createRoute({
  method: "post",
  path: "/uploads/presign",
  operationId: "createKycUploadTicket",
  summary: "Get a presigned S3 upload for a document picture",
  description:
    "A presigned POST (valid 5 minutes) that lets the browser send one picture straight to the private KYC bucket. The signed policy fixes the object key (under the user's own prefix), 1 byte to 5 MB, the JPEG or PNG content type asked for, and server-side encryption. The ticket is recorded: when S3 reports the object, it is attached only if a ticket was issued for exactly that key, to this user, submission and document type, and the object was created before the ticket expired (any other object is deleted). Then the same checks as POST /upload run: a refused file is deleted and recorded as a rejected document with its message (docs/product/kyc.md#messages); the outcome appears in GET /status and on the KYC stream (documentVerified).",
  tags: [TAGS.kyc],
  "x-stability": "beta",
  "x-complexity": "low",
  security: authenticated,
  request: {
    body: jsonBody("KycUploadTicketInput", UploadTicketInput, {
      document_type: "passport",
      content_type: "image/jpeg",
    }),
  },
  responses: {
    201: jsonReply("The upload form", "KycUploadTicketReply", TicketReply, {
      data: {
        url: "https://kyc-documents.s3.amazonaws.com/",
        fields: {
          key: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/5b3f8c1e-2d4a-4e6b-9c7d-1a2b3c4d5e6f/passport/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
          "Content-Type": "image/jpeg",
          "x-amz-server-side-encryption": "AES256",
          bucket: "kyc-documents",
          "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
          "X-Amz-Credential": "AKIA.../20260115/us-east-1/s3/aws4_request",
          "X-Amz-Date": "20260115T093400Z",
          Policy: "eyJleHBpcmF0aW9uIjoi...",
          "X-Amz-Signature": "5f1c...",
        },
        key: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/5b3f8c1e-2d4a-4e6b-9c7d-1a2b3c4d5e6f/passport/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        expires_at: "2026-01-15T09:39:00.000Z",
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "unsupported_document_type"],
      401: true,
      409: ["kyc_not_started", "kyc_submission_closed"],
      413: ["payload_too_large"],
      415: ["wrong_image_format"],
      503: true,
    }),
  },
});

const diditRoute = createRoute({
  method: "post",
  path: "/verify/didit",
  operationId: "verifyKycDocumentDidit",
  summary: "Verify a document from base64 images (Didit-style)",
  description: `\`document_image\` (base64, or a data: URL) gets every check of POST /upload; \`country_code\` must be the submission's country. A \`face_image\`, if sent, must be a readable JPEG/PNG too and is stored beside the document for the reviewer: no face match is computed and none is claimed (\`face_match: "not_performed"\`). ${REFUSALS} ${QUALITY} Here the rejection is the reply's \`data.status\` REJECTED (200) with its problems. ${BUSY}`,
  tags: [TAGS.kyc],
  "x-stability": "beta",
  "x-complexity": "medium",
  security: authenticated,
  request: {
    body: jsonBody("KycDiditVerifyInput", DiditVerifyInput, {
      document_image: "iVBORw0KGgoAAAANSUhEUgAA...",
      document_type: "passport",
      country_code: "IN",
      face_image: "/9j/4AAQSkZJRgABAQ...",
    }),
  },
  responses: {
    200: jsonReply("The checks' verdict", "KycDiditReply", DiditReply, {
      success: true,
      message: KYC_MESSAGES.documentVerified(DOCUMENT_TYPE_LABELS.passport),
      data: {
        status: "VERIFIED",
        document_type: "passport",
        confidence: 1,
        problems: [],
        face_image_stored: true,
        face_match: "not_performed",
        document: { ...documentExample, file_name: null, face_uploaded: true },
        progress: 75,
      },
    }),
    ...uploadErrors({
      400: [
        "validation_error",
        "invalid_json",
        "invalid_base64",
        "country_mismatch",
        "unsupported_document_type",
        "empty_file",
      ],
      401: true,
      409: ["kyc_not_started", "kyc_submission_closed", "kyc_submission_busy"],
      413: ["file_too_large"],
      415: ["wrong_image_format", "not_an_image"],
      422: ["image_unreadable", "image_too_large", "image_check_timeout"],
      503: true,
    }),
  },
});

/* ---------- handlers ---------- */

/** The multipart form's file and document type; anything missing or malformed is a 400. */
async function readUploadForm(c: Context<AppEnv>) {
  let form: Record<string, string | File>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw badRequest("Request body must be a multipart form with the fields file and document_type");
  }
  const documentType = parseWith(UploadDocumentType, form.document_type);
  const file = form.file;
  if (!(file instanceof File)) throw badRequest("file is required: send the picture as the multipart field `file`");
  return {
    documentType,
    bytes: new Uint8Array(await file.arrayBuffer()),
    // Shown to reviewers later: no control characters, bounded.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    fileName: file.name.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, FILE_NAME_MAX) || null,
    declaredType: file.type ? file.type.slice(0, 100) : null,
  };
}

const replyData = (recorded: RecordedDocument) => ({ ...recorded.document, progress: recorded.submission.progress });

/** The applicant's document uploads; every route needs a signed-in user (their own submission only). */
export const kycDocumentRoutes = $(
  new OpenAPIHono<AppEnv>()
    .use("/upload", requireAuth, bodyLimit({ maxSize: UPLOAD_MAX_BODY_BYTES, onError: tooLargeReply }))
    .use("/uploads/presign", requireAuth)
    .use("/verify/didit", requireAuth, bodyLimit({ maxSize: DIDIT_MAX_BODY_BYTES, onError: tooLargeReply })),
)
  .openapi(uploadRoute, async (c) => {
    const recorded = await acceptDocumentUpload(c.get("core"), c.get("auth").userId, await readUploadForm(c));
    if (recorded.status === "REJECTED") throw unprocessable(rejectionMessage(recorded.problems), "document_rejected");
    return c.json(
      {
        success: true as const,
        message: KYC_MESSAGES.documentVerified(DOCUMENT_TYPE_LABELS[recorded.document.type]),
        data: replyData(recorded),
      },
      201,
    );
  })
  .openapi(presignRoute, async (c) => {
    const input = await parseJsonBody(c, UploadTicketInput);
    return c.json(
      { data: await createUploadTicket(c.get("core"), c.get("auth").userId, input.document_type, input.content_type) },
      201,
    );
  })
  .openapi(diditRoute, async (c) => {
    const result = await verifyDidit(c.get("core"), c.get("auth").userId, await parseJsonBody(c, DiditVerifyInput));
    const verified = result.status === "VERIFIED";
    return c.json(
      {
        success: true as const,
        message: verified
          ? KYC_MESSAGES.documentVerified(DOCUMENT_TYPE_LABELS[result.document.type])
          : rejectionMessage(result.problems),
        data: {
          status: result.status,
          document_type: result.document.type,
          confidence: result.confidence,
          problems: result.problems,
          face_image_stored: result.faceStored,
          face_match: "not_performed" as const,
          document: result.document,
          progress: result.submission.progress,
        },
      },
      200,
    );
  });

import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { KycStateView } from "@fintech/core/kyc/applicant-replies";
import { requireUserSubmission, stateOf } from "@fintech/core/kyc/applicant-state";
import { startKyc } from "@fintech/core/kyc/start";
import { StartKycInput } from "@fintech/core/kyc/applicant-inputs";
import { verifyIdentityNumber } from "@fintech/core/kyc/identity-number-steps";
import { decodeBase64Image } from "@fintech/core/kyc/documents/didit";
import { ApplicantDocument } from "@fintech/core/kyc/documents/record-document";
import { acceptDocumentUpload } from "@fintech/core/kyc/documents/upload";
import { cursorBeforeSubmission } from "@fintech/core/kyc/events";
import { isIdentityNumberType } from "@fintech/core/kyc/identity-numbers";
import {
  DOCUMENT_TYPE_LABELS,
  DocumentType,
  IdentityNumberType,
  KYC_LIMITS,
  KYC_MESSAGES,
} from "@fintech/core/kyc/model";
import { findUserSubmission } from "@fintech/core/kyc/submissions";
import { forbidden, notFound } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { handleCommand } from "../http/commands";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonReply, schemaRef, TAGS } from "../http/openapi";
import { feedOwner } from "../http/feed-response";
import { parseWith } from "../http/validate";
import { kycHealthReply, kycHealthResponses, originOf } from "./kyc";
import { KycUserId, kycFeedUrl } from "./feeds";

/**
 * The KYC streaming client's health check and commands (docs/product/kyc.md#live-updates and
 * docs/product/kyc.md#calls): `GET /api/grpc/kyc/health` and `POST /api/grpc/kyc/command`, served
 * by the API beside the KYC stream (kyc-feed.ts) at the same prefix.
 */

/* ---------- commands ---------- */

const COMMANDS = ["startVerification", "uploadDocument", "verifyDocument", "subscribeToVerification"] as const;
type CommandName = (typeof COMMANDS)[number];

/**
 * uploadDocument carries a picture of up to 5 MB as base64 (4 characters per 3 bytes) in JSON:
 * the command route takes that much, plus room for the envelope. (The app's general 1 MB limit
 * must skip this path for it to apply: see http/body-limits.ts.)
 */
export const COMMAND_MAX_BODY_BYTES = Math.ceil(KYC_LIMITS.maxFileBytes / 3) * 4 + 64 * 1024;

const StartVerification = StartKycInput.extend({ userId: KycUserId.optional() });

const UploadDocument = z.object({
  userId: KycUserId.optional(),
  documentType: DocumentType,
  documentData: z
    .string({ error: "documentData is required (the image as base64)" })
    .min(1, "documentData is required (the image as base64)"),
  fileName: z.string().max(255, "fileName must be at most 255 characters").optional(),
});

const VerifyDocument = z.object({
  userId: KycUserId.optional(),
  documentType: z.union([IdentityNumberType, DocumentType], {
    error: `documentType must be an identity number type (e.g. aadhaar, pan, us_ssn) or one of ${DocumentType.options.join(", ")}`,
  }),
  documentNumber: z.string().max(64).optional(),
});

const SubscribeToVerification = z.object({
  userId: KycUserId.optional(),
  includeRiskUpdates: z.boolean({ error: "includeRiskUpdates must be true or false" }).optional(),
});

/** Commands act for the caller; a userId, when sent, must be theirs. */
function ownUser(c: Context<AppEnv>, userId: string | undefined): string {
  const caller = c.get("auth").userId;
  if (userId !== undefined && userId !== caller) throw forbidden("You may only act on your own KYC", "forbidden");
  return caller;
}

async function verifyDocument(c: Context<AppEnv>, input: z.infer<typeof VerifyDocument>) {
  const core = c.get("core");
  const userId = ownUser(c, input.userId);
  const type = input.documentType;
  if (isIdentityNumberType(type)) {
    const verified = await verifyIdentityNumber(core, userId, type, { document_number: input.documentNumber });
    return {
      documentType: type,
      status: "VERIFIED" as const,
      valid: true,
      masked: verified.masked,
      progress: verified.progress,
      kycStatus: verified.kyc_status,
    };
  }
  // An identity document is verified by its checks when it is uploaded: this reports their result.
  const submission = await requireUserSubmission(core, userId);
  const document = submission.documents[type];
  if (!document) throw notFound(`No ${DOCUMENT_TYPE_LABELS[type]} has been uploaded yet`, "document_not_uploaded");
  const status = document.status === "verified" ? "VERIFIED" : document.status === "rejected" ? "REJECTED" : "PENDING";
  return {
    documentType: type,
    status,
    valid: status === "VERIFIED",
    problems: document.checks?.problems ?? [],
    progress: submission.progress,
    kycStatus: submission.status,
  };
}

async function runCommand(c: Context<AppEnv>, name: CommandName, args: Record<string, unknown>): Promise<unknown> {
  const core = c.get("core");
  switch (name) {
    case "startVerification": {
      const { userId, ...input } = parseWith(StartVerification, args);
      const submission = await startKyc(core, ownUser(c, userId), input, originOf(c));
      return {
        verificationId: submission.id,
        message: KYC_MESSAGES.started(submission.location),
        state: stateOf(submission),
      };
    }
    case "uploadDocument": {
      const input = parseWith(UploadDocument, args);
      const userId = ownUser(c, input.userId);
      const { bytes, declaredType } = decodeBase64Image(input.documentData, "documentData");
      const recorded = await acceptDocumentUpload(core, userId, {
        documentType: input.documentType,
        bytes,
        fileName: input.fileName ?? null,
        declaredType,
      });
      // The applicant's view only: the submission itself holds what applicants never see (object keys, risk reasons).
      return {
        documentType: input.documentType,
        status: recorded.status,
        confidence: recorded.confidence,
        problems: recorded.problems,
        document: recorded.document,
        progress: recorded.submission.progress,
        kycStatus: recorded.submission.status,
      };
    }
    case "verifyDocument":
      return verifyDocument(c, parseWith(VerifyDocument, args));
    case "subscribeToVerification": {
      const input = parseWith(SubscribeToVerification, args);
      const auth = c.get("auth");
      const owner = feedOwner(c, input.userId);
      const submission = await findUserSubmission(core, owner);
      const lastEventId = submission ? cursorBeforeSubmission(core, submission) : undefined;
      const ticket = await issueStreamTicket(core, { id: auth.userId, role: auth.role }, auth.credential);
      return {
        streamUrl: kycFeedUrl(owner, {
          includeRiskUpdates: input.includeRiskUpdates === false ? "false" : undefined,
          lastEventId,
        }),
        verificationId: submission?.id ?? null,
        ticket: ticket.ticket,
        ticketExpiresAt: ticket.expires_at,
      };
    }
  }
}

/* ---------- declarations ---------- */

const streaming = { tags: [TAGS.streaming] as [typeof TAGS.streaming], "x-stability": "stable" as const };

const KycCommandInput = z.union([
  z.object({ command: z.object({ startVerification: StartVerification }).strict() }),
  z.object({ command: z.object({ uploadDocument: UploadDocument }).strict() }),
  z.object({ command: z.object({ verifyDocument: VerifyDocument }).strict() }),
  z.object({ command: z.object({ subscribeToVerification: SubscribeToVerification }).strict() }),
]);

const KycCommandReply = z.object({
  command: z.enum(COMMANDS),
  result: z.union([
    z.object({ verificationId: z.string(), message: z.string(), state: KycStateView }).describe("startVerification"),
    z
      .object({
        documentType: DocumentType,
        status: z.enum(["VERIFIED", "REJECTED"]),
        confidence: z.number(),
        problems: z.array(z.string()),
        document: ApplicantDocument,
        progress: z.number().int(),
        kycStatus: z.string(),
      })
      .describe(
        "uploadDocument: the checks' outcome (a picture that fails them is recorded as rejected, with its problems)",
      ),
    z
      .object({
        documentType: z.string(),
        status: z.enum(["VERIFIED", "REJECTED", "PENDING"]),
        valid: z.boolean(),
        masked: z.string().optional(),
        problems: z.array(z.string()).optional(),
        progress: z.number().int(),
        kycStatus: z.string(),
      })
      .describe("verifyDocument"),
    z
      .object({
        streamUrl: z
          .string()
          .describe(
            "The stream URL; it resumes from just before the current verification started, so its whole history comes first",
          ),
        verificationId: z.string().nullable(),
        ticket: z.string().describe("A stream ticket: append `&ticket=` for EventSource (bearer clients need none)"),
        ticketExpiresAt: z.string(),
      })
      .describe("subscribeToVerification"),
  ]),
});

const healthRoute = createRoute({
  ...streaming,
  method: "get",
  path: "/health",
  operationId: "getKycStreamHealth",
  summary: "KYC streaming service health",
  description:
    "The connect check of the KYC streaming client: a bearer token, then the same real checks as GET /api/v1/kyc/ (table and document bucket). 503 with Retry-After when the store does not answer.",
  "x-complexity": "medium",
  security: authenticated,
  responses: kycHealthResponses("kyc-stream"),
});

const commandRoute = createRoute({
  ...streaming,
  method: "post",
  path: "/command",
  operationId: "runKycCommand",
  summary: "Run a KYC command",
  description:
    "One gRPC-style command per request, `{command: {<name>: {...arguments}}}`: `startVerification` (as POST /api/v1/kyc/start; amount defaults to 50000), `uploadDocument` (documentType, documentData as base64 of at most 5 MB, fileName: the same checks as an upload), `verifyDocument` (an identity number type the submission's country asks for, e.g. aadhaar, pan or us_ssn, with documentNumber, as /verify/*; an identity document type reports its checks' result), `subscribeToVerification` (the stream URL, resuming from the start of the current verification, and a stream ticket). `userId`, when sent, must be the caller's (subscribeToVerification: or any, for an admin). A refusal is 'KYC command failed' with the `reason` and the status of the underlying error.",
  "x-complexity": "medium",
  security: authenticated,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: schemaRef("KycCommandInput", KycCommandInput, "input"),
          example: {
            command: {
              startVerification: {
                country: "IN",
                name: "Asha Rao",
                email: "asha@example.com",
                phone: "+919876543210",
                amount: 50_000,
              },
            },
          },
        },
      },
    },
  },
  responses: {
    200: jsonReply("The command's result", "KycCommandReply", KycCommandReply, {
      command: "verifyDocument",
      result: {
        documentType: "aadhaar",
        status: "VERIFIED",
        valid: true,
        masked: "XXXX XXXX 2346",
        progress: 25,
        kycStatus: "pending",
      },
    }),
    ...errors({
      400: [
        "validation_error",
        "invalid_json",
        "unknown_command",
        "invalid_aadhaar",
        "invalid_pan",
        "invalid_identity_number",
        "identity_number_not_asked",
        "invalid_base64",
        "unsupported_document_type",
        "empty_file",
      ],
      401: true,
      403: ["forbidden"],
      404: ["kyc_not_started", "document_not_uploaded"],
      409: ["kyc_already_started", "kyc_not_editable", "kyc_submission_closed", "kyc_submission_busy"],
      413: ["file_too_large", "payload_too_large"],
      415: ["not_an_image", "wrong_image_format"],
      422: ["image_unreadable", "image_too_large", "image_check_timeout"],
      503: true,
    }),
  },
});

/** Over the command limit: the size message of docs/product/kyc.md#messages, as a refused command. */
const commandTooLarge = (c: Context<AppEnv>) =>
  c.json({ message: "KYC command failed", reason: KYC_MESSAGES.fileTooLarge, code: "file_too_large" }, 413);

/**
 * Mounted before the stream (kyc-feed.ts), the commands after it, so the document lists the
 * prefix's routes in that order.
 */
export const kycStreamHealthRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...healthRoute, middleware: [requireAuth] as const },
  (c) => kycHealthReply(c, "kyc-stream"),
);

export const kycCommandRoutes = $(
  new OpenAPIHono<AppEnv>().use(
    "/command",
    requireAuth,
    bodyLimit({ maxSize: COMMAND_MAX_BODY_BYTES, onError: commandTooLarge }),
  ),
).openapi(commandRoute, (c) =>
  handleCommand(c, COMMANDS, "KYC command failed", (name, args) => runCommand(c, name, args)),
);

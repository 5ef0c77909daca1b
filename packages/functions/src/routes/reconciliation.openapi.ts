import { createRoute } from "@hono/zod-openapi";
import {
  BreakList,
  BreakQuery,
  FileQuery,
  NightlyInput,
  NightlyReply,
  PositionsQuery,
  PositionsReply,
  ReconciliationBreak,
  ReopenBreakInput,
  ResolveBreakInput,
  SettlementFile,
  SettlementFileList,
  UPLOAD_MAX_BYTES,
  UploadGrant,
  UploadRequest,
} from "@fintech/core/reconciliation/model";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  queryParameters,
  TAGS,
} from "../http/openapi";

/**
 * The OpenAPI declarations of the reconciliation routes (reconciliation.ts), in the order the
 * document lists them. Every route is for administrators only.
 */

const tags = [TAGS.ledger] as [typeof TAGS.ledger];
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";
const DOC = "docs/money-operations.md#reconciliation";

const exampleFile: SettlementFile = {
  id: "ach_2026-11-27_0f1e2d3c4b5a69788796a5b4c3d2e1f0",
  railId: "ach",
  rail: "ACH",
  filename: "2026-11-27.csv",
  key: "incoming/ach/2026-11-27.csv",
  versionId: null,
  sha256: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
  date: "2026-11-27",
  importedAt: "2026-11-28T02:00:04.000Z",
  variance: 0.05,
  status: "success",
  statusLabel: "Auto-Reconciled",
  lines: 1200,
  matched: 1199,
  breakCounts: {
    amount_mismatch: 0,
    fee_mismatch: 1,
    missing_from_file: 0,
    unknown_to_ledger: 0,
    duplicate_line: 0,
    missing_file: 0,
  },
  totals: [
    { currency: "USD", file: "120000.00", matched: "120000.00", ledger: "120000.00", fees: "180.01", variance: 0 },
  ],
  suspenseJournalIds: ["8d0c1e52-6a0b-5c3f-9d1e-2f3a4b5c6d7e"],
  settlementJournalIds: ["9e1d2f63-7b1c-5d40-8e2f-3a4b5c6d7e8f"],
  source: "s3_event",
  rejection: null,
  downloadUrl:
    "http://localhost:4569/settlements/results/ach_2026-11-27_0f1e2d3c4b5a69788796a5b4c3d2e1f0.csv?X-Amz-Signature=...",
  committed_at: "2026-11-28T02:00:04.000Z",
};

const exampleBreak: ReconciliationBreak = {
  id: "ach_2026-11-27_0f1e2d3c4b5a69788796a5b4c3d2e1f0~L000000017",
  fileId: exampleFile.id,
  railId: "ach",
  rail: "ACH",
  date: "2026-11-27",
  class: "fee_mismatch",
  classLabel: "Fee mismatch",
  status: "open",
  reference: "PAY-5b0e8e3c-7a52-4f39-9d55-0d8f7b1c2a3e-1",
  line: 17,
  type: "payment",
  fileAmount: "100.00",
  ledgerAmount: "100.00",
  fileFee: "0.16",
  ledgerFee: "0.15",
  currency: "USD",
  difference: "0.01",
  suspense: "0.01",
  reason: null,
  paymentId: "5b0e8e3c-7a52-4f39-9d55-0d8f7b1c2a3e",
  suspenseJournalId: "8d0c1e52-6a0b-5c3f-9d1e-2f3a4b5c6d7e",
  resolution: null,
  history: [
    { action: "raised", by: "system", at: "2026-11-28T02:00:04.000Z", note: null, journalId: null, version: 1 },
  ],
  version: 1,
  createdAt: "2026-11-28T02:00:04.000Z",
  committed_at: "2026-11-28T02:00:04.000Z",
};

const fileIdParameter = pathParameter("id", "A settlement file id (`<rail>_<YYYY-MM-DD>_<32 hex>`)", exampleFile.id);
const breakIdParameter = pathParameter("id", "A break id", exampleBreak.id);

const adminErrors = { 401: true, 403: ["admin_required"], 503: true } as const;

export const listFilesRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/files",
  operationId: "listSettlementFiles",
  summary: "Reconciled settlement files",
  description: `Settlement files reconciled (${DOC}), newest settlement day first: variance (percent, the largest of the file's currencies), status (Auto-Reconciled below 0.1 %, Requires Review at 1 % or more, Warning between), line and break counts per class, totals per currency, where it came from and a 5-minute link to the per-line result CSV. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: queryParameters(FileQuery),
  responses: {
    200: jsonReply("A page of files", "SettlementFileList", SettlementFileList, {
      files: [exampleFile],
      nextCursor: null,
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], ...adminErrors }),
  },
});

export const getFileRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/files/{id}",
  operationId: "getSettlementFile",
  summary: "One reconciled settlement file",
  description: `The file's summary with a fresh 5-minute link to its result CSV. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: [fileIdParameter],
  responses: {
    200: jsonReply("The file", "SettlementFile", SettlementFile, exampleFile),
    ...errors({ 400: ["validation_error"], 404: ["file_not_found"], ...adminErrors }),
  },
});

export const listBreaksRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/breaks",
  operationId: "listReconciliationBreaks",
  summary: "Reconciliation breaks",
  description: `Breaks newest settlement day first, filtered by class, status, rail or file (${DOC}). Amounts are decimal strings in the break's currency; \`suspense\` is what the break holds in the suspense account. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: queryParameters(BreakQuery),
  responses: {
    200: jsonReply("A page of breaks", "BreakList", BreakList, { breaks: [exampleBreak], nextCursor: null }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], ...adminErrors }),
  },
});

export const resolveBreakRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/breaks/{id}/resolve",
  operationId: "resolveReconciliationBreak",
  summary: "Resolve a break: match it by hand or write it off",
  description: `\`match\` settles a payment attempt by hand: the break's own attempt (an amount mismatch, an attempt missing from the file) or, for an unknown or duplicate line, an attempt of the same file that is missing from it (both breaks are resolved); the suspense amount is booked back and the attempt leaves Clearing. \`write_off\` moves the suspense amount (or, for an attempt missing from the file, its Clearing amount) to Settlement write-offs. Each is one balanced journal, audited on the break with the admin, time and note. A break changed meanwhile is a 409. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [breakIdParameter, idempotencyKeyParameter()],
  request: {
    body: jsonBody("ResolveBreakInput", ResolveBreakInput, {
      action: "match",
      reference: exampleBreak.reference,
      note: "The rail confirmed the amount",
    }),
  },
  responses: {
    200: jsonReply("The break as resolved", "ReconciliationBreak", ReconciliationBreak, {
      ...exampleBreak,
      status: "resolved",
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_idempotency_key"],
      404: ["break_not_found"],
      409: ["already_resolved", "version_conflict"],
      422: ["not_matchable", "reference_not_found", "reference_currency", "idempotency_key_reused"],
      ...adminErrors,
    }),
  },
});

export const reopenBreakRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/breaks/{id}/reopen",
  operationId: "reopenReconciliationBreak",
  summary: "Reopen a resolved break",
  description: `Posts the reverse of the resolution's journal and opens the break again (with the partner of a match), audited. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [breakIdParameter, idempotencyKeyParameter()],
  request: { body: jsonBody("ReopenBreakInput", ReopenBreakInput, { note: "Matched to the wrong payment" }) },
  responses: {
    200: jsonReply("The break, open again", "ReopenedBreak", ReconciliationBreak, exampleBreak),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_idempotency_key"],
      404: ["break_not_found"],
      409: ["not_resolved", "version_conflict"],
      422: ["idempotency_key_reused"],
      ...adminErrors,
    }),
  },
});

export const uploadRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/uploads",
  operationId: "createSettlementUpload",
  summary: "A presigned POST to upload a settlement file",
  description: `A form the browser posts straight to the settlements bucket, valid for 5 minutes: the key is the rail-day's under \`incoming/\`, the content type must be text/csv, the size at most the declared \`size\` (at most ${UPLOAD_MAX_BYTES} bytes) and the content's SHA-256 the declared \`sha256\` (the bucket has Object Lock, which takes no object without a checksum); the bucket enforces all three. The object's event then reconciles the file (source \`upload\`). ${ADMIN_ONLY}`,
  "x-complexity": "low",
  request: {
    body: jsonBody("UploadRequest", UploadRequest, {
      railId: "ach",
      date: "2026-11-27",
      filename: "ach-2026-11-27.csv",
      size: 52_000,
      sha256: "U3/xGQmcKzA/x935+5CkytU8+k6Q4dstMfhgiSlERGI=",
    }),
  },
  responses: {
    201: jsonReply("The upload form", "UploadGrant", UploadGrant, {
      url: "http://localhost:4569/settlements",
      fields: { key: "incoming/ach/2026-11-27.upload-abc.csv", "Content-Type": "text/csv", Policy: "..." },
      key: "incoming/ach/2026-11-27.upload-abc.csv",
      expiresAt: "2026-11-28T09:05:00.000Z",
      maxBytes: 52_000,
    }),
    ...errors({ 400: ["validation_error", "invalid_json"], 404: ["rail_not_found"], ...adminErrors }),
  },
});

export const positionsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/positions",
  operationId: "clearingPositions",
  summary: "Clearing positions of a day",
  description: `Per rail and currency: expected (attempts sent that day) − settled (matched in files) − resolved (by hand) = open; \`netsToZero\` once the day is settled. And what open breaks hold in suspense per currency. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: queryParameters(PositionsQuery),
  responses: {
    200: jsonReply("The positions", "PositionsReply", PositionsReply, {
      date: "2026-11-27",
      positions: [
        {
          railId: "ach",
          rail: "ACH",
          date: "2026-11-27",
          currency: "USD",
          expected: "120000.00",
          settled: "120000.00",
          resolved: "0.00",
          open: "0.00",
          netsToZero: true,
        },
      ],
      suspense: [{ currency: "USD", open: "0.01" }],
    }),
    ...errors({ 400: ["validation_error"], ...adminErrors }),
  },
});

export const nightlyRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/nightly",
  operationId: "runNightlyReconciliation",
  summary: "Run the nightly check for a day now",
  description: `Reconciles the day's files not reconciled yet and raises one missing-file break per rail that settled attempts that day and has no file (idempotent). ${ADMIN_ONLY}`,
  "x-complexity": "high",
  request: { body: jsonBody("NightlyInput", NightlyInput, { date: "2026-11-27" }) },
  responses: {
    200: jsonReply("What the run found", "NightlyReply", NightlyReply, {
      date: "2026-11-27",
      reconciled: [],
      missingFiles: [{ railId: "upi", date: "2026-11-27", breakId: "upi_2026-11-27_nofile" }],
    }),
    ...errors({ 400: ["validation_error", "invalid_json"], ...adminErrors }),
  },
});

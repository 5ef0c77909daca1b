import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { documentObjectKey, parseDocumentObjectKey } from "./storage";
import { ticketRefusal, TICKET_CLOCK_SKEW_MS, type UploadTicketRecord } from "./upload-tickets";

/** The ticket rule as a table: which objects an ObjectCreated event may attach. */

const userId = randomUUID();
const submissionId = randomUUID();
const issuedAt = Date.parse("2026-03-01T10:00:00.000Z");
const key = documentObjectKey(userId, submissionId, "passport");
const ticket: UploadTicketRecord = {
  object_key: key,
  user_id: userId,
  submission_id: submissionId,
  document_type: "passport",
  content_type: "image/jpeg",
  issued_at: new Date(issuedAt).toISOString(),
  valid_until: new Date(issuedAt + 300_000).toISOString(),
};
const parts = (objectKey: string) => parseDocumentObjectKey(objectKey)!;
const at = (ms: number) => new Date(issuedAt + ms);

describe("ticketRefusal", () => {
  it.each([
    ["its own ticket, created in time", ticket, parts(key), at(60_000), null],
    ["created at the expiry, within the clock skew", ticket, parts(key), at(300_000 + TICKET_CLOCK_SKEW_MS), null],
    ["no ticket", null, parts(key), at(60_000), "no_ticket"],
    ["created after the ticket expired", ticket, parts(key), at(300_000 + TICKET_CLOCK_SKEW_MS + 1), "ticket_expired"],
    ["a ticket of another user", { ...ticket, user_id: randomUUID() }, parts(key), at(1), "ticket_mismatch"],
    [
      "a ticket of another submission",
      { ...ticket, submission_id: randomUUID() },
      parts(key),
      at(1),
      "ticket_mismatch",
    ],
    [
      "a ticket of another document slot",
      { ...ticket, document_type: "idCard" as const },
      parts(key),
      at(1),
      "ticket_mismatch",
    ],
    ["a face key (the API stores those itself)", ticket, { ...parts(key), face: true }, at(1), "ticket_mismatch"],
  ])("%s", (_case, given, objectKey, createdAt, expected) => {
    expect(ticketRefusal(given, objectKey, createdAt)).toBe(expected);
  });
});

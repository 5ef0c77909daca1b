import { describe, expect, it } from "vitest";
import type { Endpoint, EndpointParameter } from "./catalogue";
import {
  callerValueFor,
  emptyIdFields,
  initialDraft,
  isSampleId,
  prettyJson,
  requestTarget,
  withCallerIds,
} from "./request";

const SAMPLE_ACCOUNT = "3b2f6c1d-5e4a-4b7c-9d8e-1f2a3b4c5d6e";
const SAMPLE_OTHER = "8c7d6e5f-4a3b-4c2d-8e1f-0a9b8c7d6e5f";

function endpointOf(
  method: Endpoint["method"],
  path: string,
  parameters: EndpointParameter[],
  requestExample?: unknown,
): Endpoint {
  return {
    key: `${method}-${path}`,
    method,
    path,
    summary: "",
    description: "",
    category: "Ledger & Double-Entry",
    stability: "stable",
    complexity: null,
    authenticated: true,
    scope: null,
    scopeNote: null,
    sessionOnly: false,
    parameters,
    requestExample,
    hasRequestBody: requestExample !== undefined,
    responseStatus: "200",
    responseExample: undefined,
    streaming: false,
    sseEvents: [],
    idempotent: false,
  };
}

const pathId = (example: string): EndpointParameter => ({
  name: "id",
  in: "path",
  required: true,
  description: "",
  example,
});
const transfer = endpointOf("POST", "/api/v1/ledger/transactions/transfer", [], {
  from_account_id: SAMPLE_ACCOUNT,
  to_account_id: SAMPLE_OTHER,
  amount: "25.00",
});
const lock = endpointOf("POST", "/api/v1/ledger/accounts/{id}/lock", [pathId(SAMPLE_ACCOUNT)]);
const postJournal = endpointOf("POST", "/api/v1/ledger/transactions/{id}/post", [
  pathId("d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70"),
]);
const railStart = endpointOf("POST", "/api/v1/rails/{id}/start", [pathId("ach")]);
const payment = endpointOf("POST", "/v1/payments", [], {
  userId: "0b8f0f5e-2a47-4c1d-9b7e-3f0d6c2a9e11",
  fromAccountId: SAMPLE_ACCOUNT,
  amount: 1000,
});
const key = () => "fresh-key";

describe("Try It ids", () => {
  it("knows a sample id from a real value", () => {
    expect(isSampleId(SAMPLE_ACCOUNT)).toBe(true);
    expect(isSampleId("ach")).toBe(false);
    expect(isSampleId("acc 1/2")).toBe(false);
    expect(isSampleId(42)).toBe(false);
  });

  it("signed out, leaves every sample id empty rather than sending one that 404s", () => {
    const draft = initialDraft(transfer, { newIdempotencyKey: key });
    expect(JSON.parse(draft.body)).toEqual({ from_account_id: "", to_account_id: "", amount: "25.00" });
    expect(emptyIdFields(transfer, draft.body)).toEqual(["from_account_id", "to_account_id"]);
    const locking = initialDraft(lock, { newIdempotencyKey: key });
    expect(locking.path).toEqual({ id: "" });
    expect(requestTarget(lock, locking)).toEqual({ ok: false, message: "Fill in id" });
    // A value that names something real (a rail id) stays.
    expect(initialDraft(railStart, { newIdempotencyKey: key }).path).toEqual({ id: "ach" });
  });

  it("signed in, fills them from the caller's own accounts and user id", () => {
    const ids = { userId: "me", accountIds: ["acc-own-1", "acc-own-2"] };
    const draft = initialDraft(transfer, { ...ids, newIdempotencyKey: key });
    expect(JSON.parse(draft.body)).toEqual({
      from_account_id: "acc-own-1",
      to_account_id: "acc-own-2",
      amount: "25.00",
    });
    expect(emptyIdFields(transfer, draft.body)).toEqual([]);
    expect(initialDraft(lock, { ...ids, newIdempotencyKey: key }).path).toEqual({ id: "acc-own-1" });
    expect(JSON.parse(initialDraft(payment, { ...ids, newIdempotencyKey: key }).body)).toEqual({
      userId: "me",
      fromAccountId: "acc-own-1",
      amount: 1000,
    });
    // No own value for a journal id: empty with the hint, never the sample.
    expect(initialDraft(postJournal, { ...ids, newIdempotencyKey: key }).path).toEqual({ id: "" });
    // One account only: the destination waits for the caller.
    expect(
      JSON.parse(initialDraft(transfer, { userId: "me", accountIds: ["only"], newIdempotencyKey: key }).body),
    ).toMatchObject({ from_account_id: "only", to_account_id: "" });
  });

  it("fills what is still empty once the accounts arrive, and keeps what the user typed", () => {
    const before = initialDraft(transfer, { userId: "me", newIdempotencyKey: key });
    const typed = { ...before, body: prettyJson({ ...JSON.parse(before.body), to_account_id: "typed" }) };
    const after = withCallerIds(transfer, typed, { userId: "me", accountIds: ["a1", "a2"] });
    expect(JSON.parse(after.body)).toEqual({ from_account_id: "a1", to_account_id: "typed", amount: "25.00" });
    expect(
      withCallerIds(lock, { path: { id: "" }, query: {}, headers: {}, body: "" }, { accountIds: ["a1"] }).path,
    ).toEqual({ id: "a1" });
    // A body being edited (not JSON yet) is left alone.
    expect(withCallerIds(transfer, { ...before, body: "{ half" }, { accountIds: ["a1"] }).body).toBe("{ half");
  });

  it("matches own values by field name in either spelling", () => {
    const ids = { userId: "u", accountIds: ["a", "b"] };
    expect(
      ["user_id", "userId", "account_id", "fromAccountId", "to_account_id"].map((name) =>
        callerValueFor(name, "/x", ids),
      ),
    ).toEqual(["u", "u", "a", "a", "b"]);
    expect(callerValueFor("id", "/api/v1/ledger/transactions/{id}/post", ids)).toBeUndefined();
    expect(callerValueFor("submission_id", "/x", ids)).toBeUndefined();
  });
});

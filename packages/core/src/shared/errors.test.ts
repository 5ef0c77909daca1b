import { describe, expect, it } from "vitest";
import { isStoreUnavailable, serviceUnavailable } from "./errors";

const awsError = (name: string, status?: number) =>
  Object.assign(new Error(name), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}) });

describe("isStoreUnavailable", () => {
  it.each([
    ["a request timeout", awsError("TimeoutError")],
    ["throttling", awsError("ThrottlingException", 400)],
    ["exceeded throughput", awsError("ProvisionedThroughputExceededException", 400)],
    ["a server fault", awsError("InternalServerError", 500)],
    ["any 5xx reply", awsError("SomethingNew", 503)],
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })],
    [
      "a reset wrapped as a cause",
      new Error("send failed", { cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }) }),
    ],
  ])("is true for %s", (_case, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ["a failed condition", awsError("ConditionalCheckFailedException", 400)],
    ["a bad request to the store (a bug)", awsError("ValidationException", 400)],
    ["a missing table (a bug or a deploy fault)", awsError("ResourceNotFoundException", 400)],
    ["a plain error", new Error("bug")],
    ["a non-error", "nope"],
    ["null", null],
  ])("is false for %s", (_case, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});

describe("serviceUnavailable", () => {
  it("is a 503 with a whole-second Retry-After", () => {
    const error = serviceUnavailable(undefined, 2.2);
    expect(error.status).toBe(503);
    expect(error.code).toBe("service_unavailable");
    expect(error.headers).toEqual({ "Retry-After": "3" });
  });
});

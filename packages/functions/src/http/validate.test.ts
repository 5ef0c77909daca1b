import { describe, expect, it } from "vitest";
import { isAppError } from "@fintech/core/shared/errors";
import { jsonDepth, MAX_JSON_DEPTH, parseJsonText } from "./validate";

const refusal = (text: string) => {
  try {
    parseJsonText(text);
  } catch (error) {
    if (isAppError(error)) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  return null;
};

describe("jsonDepth", () => {
  it("counts brackets outside strings only", () => {
    expect(jsonDepth('{"a": [1, {"b": 2}]}')).toBe(3);
    expect(jsonDepth('{"a": "[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a": "quote \\" then [[["}')).toBe(1);
    expect(jsonDepth("42")).toBe(0);
  });
});

describe("parseJsonText", () => {
  it("parses ordinary JSON", () => {
    expect(parseJsonText('{"email": "a@example.com"}')).toEqual({ email: "a@example.com" });
  });

  it("refuses deep nesting before parsing, as a 400", () => {
    expect(refusal("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBeNull();
    expect(refusal("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1))).toEqual({
      status: 400,
      code: "invalid_json",
      message: "Request body is nested too deeply",
    });
    expect(refusal("[".repeat(500_000))?.status).toBe(400);
  });

  it("refuses malformed JSON as a 400", () => {
    expect(refusal("{not json")).toEqual({
      status: 400,
      code: "invalid_json",
      message: "Request body must be valid JSON",
    });
    expect(refusal("")?.code).toBe("invalid_json");
  });
});

import { describe, expect, it } from "vitest";
import type { OpenAPI3 } from "openapi-typescript";
import {
  committedSdkFiles,
  GENERATE_COMMAND,
  generateSdkFiles,
  operationScopesSource,
  streamEventsSource,
} from "../scripts/generation";
import { operationScopes } from "../src/generated/scopes";

/**
 * The committed OpenAPI document and SDK types must be what the code generates today: a route
 * declared or changed without regenerating fails here, with the command that fixes it.
 */
describe("generated SDK files", () => {
  it("match a fresh generation from the code", async () => {
    const [fresh, committed] = await Promise.all([generateSdkFiles(), committedSdkFiles()]);
    for (const [file, contents] of Object.entries(fresh) as [keyof typeof fresh, string][]) {
      expect(
        committed[file] === contents,
        `packages/sdk/${file} is out of date with the API's routes: run \`${GENERATE_COMMAND}\` and commit the result`,
      ).toBe(true);
    }
  });
});

describe("stream event types", () => {
  it("map each x-sse-events name to its component schema, and an inline schema to unknown", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/events": {
          get: {
            responses: {
              "200": {
                description: "events",
                "x-sse-events": { tick: { $ref: "#/components/schemas/Tick" }, raw: { type: "string" } },
                content: { "text/event-stream": { schema: { type: "string" } } },
              },
            },
          },
        },
        "/plain": { get: { responses: { "200": { description: "json" } } } },
      },
    } as unknown as OpenAPI3;
    const source = streamEventsSource(document);
    expect(source).toContain(
      '"/events": {\n        "tick": components["schemas"]["Tick"];\n        "raw": unknown;\n    };',
    );
    expect(source).not.toContain("/plain");
  });
});

describe("operation scopes", () => {
  it("map each operation to what an API key needs, from the document's extensions", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: { operationId: "readA", "x-required-scope": "ledger:read", responses: {} },
          put: { operationId: "changeA", "x-session-only": true, responses: {} },
        },
        "/b": { get: { operationId: "open", responses: {} } },
      },
    } as unknown as OpenAPI3;
    const source = operationScopesSource(document);
    expect(source).toContain('"readA": { scope: "ledger:read" },');
    expect(source).toContain('"changeA": { sessionOnly: true },');
    expect(source).not.toContain('"open"');
    expect(operationScopes.createTransfer).toEqual({ scope: "ledger:write" });
  });
});

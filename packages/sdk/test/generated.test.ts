import { describe, expect, it } from "vitest";
import { committedSdkFiles, GENERATE_COMMAND, generateSdkFiles } from "../scripts/generation";

/**
 * The committed OpenAPI document and SDK types must be what the code generates today: a route
 * declared or changed without regenerating fails here, with the command that fixes it.
 */
describe("generated SDK files", () => {
  it("match a fresh generation from the code", async () => {
    const [fresh, committed] = await Promise.all([generateSdkFiles(), committedSdkFiles()]);
    for (const [file, contents] of Object.entries(fresh) as [keyof typeof fresh, string][]) {
      expect(committed[file] === contents, `packages/sdk/${file} is out of date with the API's routes: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(true);
    }
  });
});

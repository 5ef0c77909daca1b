import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import { openApiDocument } from "@fintech/functions/openapi-document";

/**
 * What `npm run sdk:generate` writes, computed in one place so the drift test compares the
 * committed files with exactly what the command would write.
 */
export const GENERATE_COMMAND = "npm run sdk:generate";

export const SDK_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Generated files, relative to packages/sdk. */
export const GENERATED_FILES = { document: "openapi.json", schema: "src/generated/schema.ts" } as const;
export type GeneratedFile = (typeof GENERATED_FILES)[keyof typeof GENERATED_FILES];

const SCHEMA_HEADER = `${COMMENT_HEADER.trimEnd()}
/* Source: packages/sdk/openapi.json, from openApiDocument() in @fintech/functions. Regenerate with: ${GENERATE_COMMAND} */

`;

export async function generateSdkFiles(): Promise<Record<GeneratedFile, string>> {
  const document = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  // Types from the serialised document, so they describe exactly the committed openapi.json.
  const ast = await openapiTS(JSON.parse(document) as OpenAPI3, { silent: true });
  return {
    [GENERATED_FILES.document]: document,
    [GENERATED_FILES.schema]: `${SCHEMA_HEADER}${astToString(ast)}`,
  } as Record<GeneratedFile, string>;
}

/** The committed copy of each generated file (empty when missing). */
export async function committedSdkFiles(): Promise<Record<GeneratedFile, string>> {
  const read = (file: string) => readFile(path.join(SDK_ROOT, file), "utf8").catch(() => "");
  return {
    [GENERATED_FILES.document]: await read(GENERATED_FILES.document),
    [GENERATED_FILES.schema]: await read(GENERATED_FILES.schema),
  } as Record<GeneratedFile, string>;
}

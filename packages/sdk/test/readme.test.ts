import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { SDK_ROOT } from "../scripts/generation";

/**
 * The README is what developers (and the docs' examples) copy: its TypeScript blocks, read in
 * order as one program, must type-check against the SDK as it is, so a renamed path, field or
 * option breaks this test rather than a reader's build.
 */
const README = path.join(SDK_ROOT, "README.md");
const IMPORT = /^import (type )?\{([^}]+)\} from "([^"]+)";$/;

function readmeProgramSource(markdown: string): string {
  const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const imports = new Map<string, Set<string>>();
  const body: string[] = [];
  for (const line of blocks.join("\n").split("\n")) {
    const found = IMPORT.exec(line.trim());
    if (!found) {
      body.push(line);
      continue;
    }
    const names = imports.get(found[3]!) ?? new Set<string>();
    for (const name of found[2]!
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean))
      names.add(found[1] ? `type ${name.replace(/^type /, "")}` : name);
    imports.set(found[3]!, names);
  }
  const header = [...imports].map(
    ([from, names]) => `import { ${[...names].join(", ")} } from ${JSON.stringify(from)};`,
  );
  return `${header.join("\n")}\n\nexport async function readme(): Promise<void> {\n${body.join("\n")}\n}\n`;
}

function typeErrors(source: string): string[] {
  const fileName = path.join(SDK_ROOT, "test", "__readme__.ts");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === fileName || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, language, true) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(fileName)).map((diagnostic) => {
    const where =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
        : null;
    return `${where ? `line ${where.line + 1}: ` : ""}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

describe("packages/sdk/README.md", () => {
  it("has TypeScript examples that type-check against the SDK", () => {
    const source = readmeProgramSource(readFileSync(README, "utf8"));
    expect(source).toContain('fintech.api.POST("/api/v1/ledger/transactions/transfer"');
    expect(typeErrors(source), source).toEqual([]);
  });
});

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

/**
 * Runs the code of the developer pages (documentation guides, quickstart, examples) the way a
 * reader would: every shell block with bash, every TypeScript block with tsx, in page order,
 * sharing the variables the blocks export. The pages are data modules of the web app
 * (packages/web/src/developers/**); this module reads them as data, through the schema below
 * (what the runner relies on), so it needs nothing else of the web project.
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

/** Where the pages live, and the screen that shows each module's pages. */
export const PAGE_MODULES = [
  { file: "packages/web/src/developers/docs/guides.ts", exportName: "guides", route: "/developers/docs" },
  {
    file: "packages/web/src/developers/quickstart/quickstart.ts",
    exportName: "quickstart",
    route: "/developers/quickstart",
  },
  { file: "packages/web/src/developers/examples/examples.ts", exportName: "examples", route: "/developers/examples" },
] as const;

const RunnerBlock = z.union([
  z.object({
    kind: z.literal("code"),
    language: z.string(),
    code: z.string(),
    runnable: z.literal(false).optional(),
    notRunnableBecause: z.string().optional(),
    expectOutput: z.instanceof(RegExp).optional(),
  }),
  z.object({ kind: z.enum(["heading", "paragraph", "list"]) }),
]);
const RunnerPage = z.object({
  id: z.string(),
  title: z.string(),
  requires: z.array(z.string()),
  content: z.array(RunnerBlock),
});
export type RunnerPage = z.infer<typeof RunnerPage> & { route: string };

export type ExampleLanguage = "shell" | "typescript";
export interface Example {
  /** "/developers/docs#ledger, block 7": where a reader finds it. */
  where: string;
  language: ExampleLanguage;
  code: string;
  expectOutput?: RegExp;
}
export interface SkippedExample {
  where: string;
  language: string;
  because: string;
}

/** Loads every page of every developer screen. */
export async function loadPages(): Promise<RunnerPage[]> {
  const pages: RunnerPage[] = [];
  for (const source of PAGE_MODULES) {
    const module: Record<string, unknown> = await import(pathToFileURL(path.join(REPO_ROOT, source.file)).href);
    const exported = module[source.exportName];
    for (const page of z.array(RunnerPage).parse(Array.isArray(exported) ? exported : [exported]))
      pages.push({ ...page, route: source.route });
  }
  return pages;
}

const isRunnable = (language: string): language is ExampleLanguage => language === "shell" || language === "typescript";

/** Every shell and TypeScript block of the page, in order; blocks marked not runnable apart, with their reason. */
export function extractExamples(page: RunnerPage): { examples: Example[]; skipped: SkippedExample[] } {
  const examples: Example[] = [];
  const skipped: SkippedExample[] = [];
  page.content.forEach((block, index) => {
    if (block.kind !== "code" || !isRunnable(block.language)) return;
    const where = `${page.route}${page.route === "/developers/docs" ? `#${page.id}` : ""}, block ${index + 1}`;
    if (block.runnable === false) {
      skipped.push({ where, language: block.language, because: block.notRunnableBecause ?? "(no reason given)" });
      return;
    }
    examples.push({ where, language: block.language, code: block.code, expectOutput: block.expectOutput });
  });
  return { examples, skipped };
}

/** POSIX single-quote escaping. */
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface ExampleResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * One page's run: a scratch directory the examples work in (their files: replies, CSV), and a
 * state file holding the exported variables, which each block sources first and rewrites last,
 * as one terminal session would keep them.
 */
export class PageSession {
  private readonly stateFile: string;
  private readonly scriptDir: string;
  private count = 0;

  constructor(
    private readonly name: string,
    private readonly workDir: string,
    environment: Record<string, string>,
  ) {
    mkdirSync(workDir, { recursive: true });
    this.stateFile = path.join(workDir, ".exported-variables.sh");
    // TypeScript examples import @fintech/sdk as a reader's project would: from a file inside
    // the repository, so Node's resolution finds the workspace package. node_modules/.cache is
    // ignored by git and by every tsconfig. The .mts extension makes them ES modules (top-level await).
    this.scriptDir = path.join(SCRATCH_IN_REPO, path.basename(workDir));
    mkdirSync(this.scriptDir, { recursive: true });
    writeFileSync(
      this.stateFile,
      Object.entries(environment)
        .map(([name, value]) => `export ${name}=${quote(value)}\n`)
        .join(""),
    );
  }

  get scripts(): string {
    return this.scriptDir;
  }

  run(example: Example, timeoutMs: number): Promise<ExampleResult> {
    this.count += 1;
    const prologue = `set -eo pipefail\nsource ${quote(this.stateFile)}\ncd ${quote(this.workDir)}\n`;
    let script: string;
    if (example.language === "shell") {
      script = `${prologue}${example.code}\nexport -p > ${quote(this.stateFile)}\n`;
    } else {
      const file = path.join(this.scriptDir, `${this.name}-${this.count}.mts`);
      writeFileSync(file, `${example.code}\n`);
      script = `${prologue}exec ${quote(path.join(REPO_ROOT, "node_modules/.bin/tsx"))} ${quote(file)}\n`;
    }
    return runBash(script, timeoutMs);
  }
}

/**
 * bash in its own process group with a small environment (the examples' variables come from
 * the state file). The group is killed when the script ends or times out, so nothing it left
 * in the background (a stream reader) outlives it.
 */
function runBash(script: string, timeoutMs: number): Promise<ExampleResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        LANG: "C.UTF-8",
        NO_COLOR: "1",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group has already ended.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      killGroup();
      // Let the pipes drain what bash wrote before it exited.
      child.stdout.once("close", () => resolve({ exitCode, stdout, stderr, timedOut }));
      if (child.stdout.closed) resolve({ exitCode, stdout, stderr, timedOut });
    });
  });
}

/** Where the TypeScript examples are written to be run or checked (see PageSession). */
export const SCRATCH_IN_REPO = path.join(REPO_ROOT, "node_modules/.cache/docs-examples");

/**
 * Type-checks every TypeScript block, browser-only ones included, as a reader's strict project
 * would: each block its own module, against the SDK's generated types, so an example that calls
 * a path, passes a body or reads a field the API does not have fails here, not in a reader's editor.
 */
export function typeCheckExamples(pages: readonly RunnerPage[]): {
  files: number;
  exitCode: number | null;
  output: string;
} {
  const directory = path.join(SCRATCH_IN_REPO, "typecheck");
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  let files = 0;
  for (const page of pages) {
    page.content.forEach((block, index) => {
      if (block.kind !== "code" || block.language !== "typescript") return;
      files += 1;
      // `export {}` keeps each file a module even when the example imports nothing.
      writeFileSync(path.join(directory, `${page.id}-block-${index + 1}.mts`), `${block.code}\nexport {};\n`);
    });
  }
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    types: ["node"],
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  };
  writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.mts"] }));
  const result = spawnSync(
    path.join(REPO_ROOT, "node_modules/.bin/tsc"),
    ["-p", path.join(directory, "tsconfig.json")],
    { encoding: "utf8" },
  );
  return { files, exitCode: result.status, output: `${result.stdout}${result.stderr}` };
}

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { functionBundling } from "../infra/bundling";
import { REPO_ROOT } from "./testing";

/**
 * The compliance PDFs are made inside the API function. pdfkit loads its standard fonts' metrics
 * with a runtime require that only resolves beside its own package; infra/bundling.ts swaps it for
 * bundled modules. Here the PDF renderer is built with the functions' bundling, copied where no
 * node_modules can be found, and run in a fresh Node process: it must write a PDF, and without the
 * swap it must fail (so the test has teeth).
 */

const BUILD_TIMEOUT_MS = 120_000;
const run = promisify(execFile);
const workDirs: string[] = [];
afterAll(() => {
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

async function renderInBundle(withFontSwap: boolean): Promise<{ stdout: string; failed: boolean }> {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-bundle-"));
  workDirs.push(dir);
  const entry = path.join(dir, "entry.ts");
  writeFileSync(
    entry,
    [
      `import { renderPdf } from ${JSON.stringify(path.join(REPO_ROOT, "packages/core/src/compliance/pdf.ts"))};`,
      `const bytes = await renderPdf({ title: "Report", subtitle: "Period", summary: ["1 row"], sections: [{ heading: "Row", lines: [["a", "b"]] }], createdAt: new Date(0) });`,
      `process.stdout.write(bytes.subarray(0, 5).toString("latin1"));`,
    ].join("\n"),
  );
  const bundling = functionBundling();
  const plugins = (bundling.esbuild.plugins ?? []).filter(
    (plugin) => withFontSwap || plugin.name !== "pdfkit-bundled-fonts",
  );
  const outdir = path.join(dir, "out");
  await build({
    ...bundling.esbuild,
    plugins,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: bundling.format,
    splitting: bundling.splitting,
    outdir,
    outExtension: { ".js": ".mjs" },
    absWorkingDir: REPO_ROOT,
    // As SST's ESM bundles: CommonJS dependencies may call require.
    banner: {
      js: "import { createRequire as topLevelCreateRequire } from 'module'; const require = topLevelCreateRequire(import.meta.url);",
    },
    logLevel: "silent",
  });
  try {
    const { stdout } = await run(process.execPath, [path.join(outdir, "entry.mjs")], { cwd: outdir });
    return { stdout, failed: false };
  } catch {
    return { stdout: "", failed: true };
  }
}

describe("a PDF from the functions' bundle", () => {
  it(
    "renders with the standard fonts bundled, and cannot without the swap",
    async () => {
      expect(await renderInBundle(true)).toEqual({ stdout: "%PDF-", failed: false });
      expect((await renderInBundle(false)).failed).toBe(true);
    },
    BUILD_TIMEOUT_MS,
  );
});

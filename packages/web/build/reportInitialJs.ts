import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/**
 * After `vite build`, prints the gzip size of the JavaScript a first visit to each listed route
 * downloads before it can render: the entry chunk and everything it imports statically, plus the
 * route's own lazy chunk and its static imports (each file counted once). Sizes are in kB of
 * 1000 bytes, like Vite's own report. A route over its budget fails the build.
 */

export interface InitialJsRoute {
  /** URL path, for the report. */
  path: string;
  /** The route module, relative to the Vite root, e.g. "src/routes/LandingPage.tsx". */
  module: string;
  /** Gzip budget in kB; no budget when omitted. */
  budgetKb?: number;
}

export interface InitialJsOptions {
  routes: InitialJsRoute[];
  /** "error" fails the build when a budget is exceeded; "warn" prints a WARNING line. */
  onExceed?: "error" | "warn";
}

interface ChunkLike {
  type: "chunk";
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  facadeModuleId: string | null;
}

type BundleLike = Record<string, ChunkLike | { type: "asset" }>;

/** File names of the chunks reachable from `roots` through static imports. */
export function staticClosure(bundle: BundleLike, roots: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    const chunk = bundle[name];
    if (!chunk || chunk.type !== "chunk") continue;
    seen.add(name);
    stack.push(...chunk.imports);
  }
  return [...seen];
}

const kb = (bytes: number) => (bytes / 1000).toFixed(2);
const normalise = (id: string) => id.replace(/\\/g, "/");

export function reportInitialJs({ routes, onExceed = "error" }: InitialJsOptions): Plugin {
  let root = "";
  const lines: string[] = [];
  return {
    name: "report-initial-js",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      root = normalise(config.root).replace(/\/$/, "");
    },
    // writeBundle: the chunks' code is final here (import-analysis rewrites it in generateBundle).
    writeBundle(_options, output) {
      const bundle = output as unknown as BundleLike;
      const chunks = Object.values(bundle).filter((item): item is ChunkLike => item.type === "chunk");
      const entries = chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
      if (entries.length === 0) return;
      const gzipCache = new Map<string, number>();
      const gzipOf = (name: string) => {
        let size = gzipCache.get(name);
        if (size === undefined) {
          const chunk = bundle[name] as ChunkLike;
          size = gzipSync(chunk.code).length;
          gzipCache.set(name, size);
        }
        return size;
      };
      const sum = (names: string[]) => names.reduce((total, name) => total + gzipOf(name), 0);

      const shell = staticClosure(bundle, entries);
      const shellGzip = sum(shell);
      const over: string[] = [];
      lines.length = 0;
      lines.push("initial JS per route (gzip, entry + static imports + route chunk):");
      for (const route of routes) {
        const moduleId = `${root}/${route.module}`;
        const routeChunk = chunks.find((chunk) => chunk.facadeModuleId && normalise(chunk.facadeModuleId) === moduleId);
        if (!routeChunk) {
          this.error(`report-initial-js: no chunk for ${route.module} (route ${route.path})`);
        }
        const files = staticClosure(bundle, [...entries, routeChunk.fileName]);
        const total = sum(files);
        const budget = route.budgetKb === undefined ? "" : ` / budget ${route.budgetKb} kB`;
        lines.push(
          `  ${route.path.padEnd(10)} ${kb(total).padStart(7)} kB${budget}  (shell ${kb(shellGzip)} kB + route ${kb(total - shellGzip)} kB, ${files.length} files)`,
        );
        if (route.budgetKb !== undefined && total > route.budgetKb * 1000) {
          over.push(`${route.path} initial JS is ${kb(total)} kB gzip, over its ${route.budgetKb} kB budget`);
        }
      }
      if (over.length > 0) {
        if (onExceed === "error") this.error(`initial JS budget exceeded: ${over.join("; ")}`);
        lines.push(`WARNING: ${over.join("; ")}`);
      }
    },
    closeBundle() {
      // Printed last, after Vite's own file table; at --logLevel warn only a WARNING shows.
      const logger = this.environment?.logger;
      for (const line of lines) {
        if (line.startsWith("WARNING")) logger ? logger.warn(line) : console.warn(line);
        else logger ? logger.info(line) : console.log(line);
      }
    },
  };
}

/**
 * How every Lambda function is bundled: the one object that sst.config.ts hands SST as the
 * default `nodejs` props and that `npm run bench:cold` builds with SST's own builder, so the
 * benchmark measures exactly what is deployed. The reasons for each choice are in
 * docs/cloud.md#functions-runtime-bundles-and-cold-start, the figures in
 * docs/benchmarks.md#cold-start.
 */
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { BuildOptions, Plugin } from "esbuild";

/** Where zod v4 (classic, mini and core) re-exports every locale as a namespace. */
const ZOD_LOCALES_INDEX = /^\.\.\/locales\/index\.js$/;
const ZOD_V4_DIR = `${path.sep}zod${path.sep}v4${path.sep}`;
const EN_ONLY_NAMESPACE = "zod-locales-en-only";

/**
 * zod v4's `z` namespace carries `z.locales`, a namespace of all 49 locales (`export * as
 * locales from "../locales/index.js"`), so any `import { z } from "zod"` bundles every locale's
 * messages although only English is ever configured (classic's
 * external.js calls `config(en())` itself). This swaps that one index module, wherever zod's v4
 * files import it, for a module exporting `en` alone. Schema files stay untouched; code that
 * reached for another locale through `z.locales` would fail at build time (nothing does).
 */
export const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: ZOD_LOCALES_INDEX }, (args) => {
      if (!args.importer.includes(ZOD_V4_DIR)) return undefined;
      return { path: path.resolve(args.resolveDir, "../locales/en.js"), namespace: EN_ONLY_NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: EN_ONLY_NAMESPACE }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * With code splitting every chunk gets a source map, and SST takes only the entry's out of the
 * zip (it uploads that one for its console): the others would ship in the zip, several times the
 * code's size, fetched at every cold start. They are removed after the build, from disk and from
 * the build's metafile, so the lazily loaded chunks have no source map in the SST console.
 */
export const entrySourceMapOnly: Plugin = {
  name: "entry-source-map-only",
  setup(build) {
    build.onEnd((result) => {
      const outputs = result.metafile?.outputs;
      if (!outputs) return;
      const root = build.initialOptions.absWorkingDir ?? process.cwd();
      const entries = new Set(
        [build.initialOptions.entryPoints ?? []].flat().map((entry) =>
          path
            .relative(root, path.resolve(root, String(entry)))
            .split(path.sep)
            .join("/"),
        ),
      );
      for (const file of Object.keys(outputs)) {
        if (!file.endsWith(".map")) continue;
        const entryPoint = outputs[file.slice(0, -".map".length)]?.entryPoint;
        if (entryPoint !== undefined && entries.has(entryPoint)) continue;
        rmSync(path.resolve(root, file), { force: true });
        delete outputs[file];
      }
    });
  },
};

/** pdfkit's Node build, which loads its 14 standard fonts' metrics with a runtime `require`. */
const PDFKIT_NODE_BUILD = /[\\/]pdfkit[\\/]js[\\/]pdfkit\.node\.mjs$/;
const PDFKIT_RUNTIME_REQUIRE = "const require$1 = createRequire(import.meta.url);";
export const PDFKIT_STANDARD_FONTS = [
  "Courier",
  "CourierBold",
  "CourierBoldOblique",
  "CourierOblique",
  "Helvetica",
  "HelveticaBold",
  "HelveticaBoldOblique",
  "HelveticaOblique",
  "Symbol",
  "TimesBold",
  "TimesBoldItalic",
  "TimesItalic",
  "TimesRoman",
  "ZapfDingbats",
] as const;

/**
 * pdfkit (the compliance reports' PDFs) loads each standard font's metrics on first use with
 * `createRequire(import.meta.url)("#standard-fonts/<name>")`, a package-internal import that only
 * resolves beside pdfkit's own package.json: in a bundle it would throw at the first PDF. This
 * swaps that one `require` for a lookup in the font modules imported statically (the metrics are
 * JavaScript, bundled like any code, no data files to ship). If pdfkit changes that line the
 * build fails here rather than in the cloud.
 */
export const pdfkitBundledFonts: Plugin = {
  name: "pdfkit-bundled-fonts",
  setup(build) {
    build.onLoad({ filter: PDFKIT_NODE_BUILD }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(PDFKIT_RUNTIME_REQUIRE))
        throw new Error(`pdfkit-bundled-fonts: ${args.path} no longer loads its fonts with ${PDFKIT_RUNTIME_REQUIRE}`);
      const imports = PDFKIT_STANDARD_FONTS.map(
        (font, index) => `import pdfkitFont${index} from "./standard-fonts/${font}.mjs";`,
      ).join("\n");
      const table = PDFKIT_STANDARD_FONTS.map((font, index) => `"#standard-fonts/${font}": pdfkitFont${index}`).join(
        ", ",
      );
      const lookup = `const pdfkitFonts = { ${table} };\nconst require$1 = (id) => pdfkitFonts[id];`;
      return {
        contents: `${imports}\n${source.replace(PDFKIT_RUNTIME_REQUIRE, lookup)}`,
        resolveDir: path.dirname(args.path),
        loader: "js",
      };
    });
  },
};

const ENV_CREDENTIALS_NAMESPACE = "lambda-env-credentials";

/**
 * Every SDK client imports the default credential chain (environment, SSO, ini files, web
 * identity, process, container, instance metadata), which brings nested STS/SSO clients: code
 * that a Lambda function never runs, because the runtime always puts the
 * execution role's credentials in the environment, the chain's first step. Deployed bundles get
 * that first step alone (`fromEnv`, from the SDK itself). Not under `sst dev`, where the
 * function runs on a laptop with whatever credentials the developer has.
 */
export const lambdaEnvCredentials: Plugin = {
  name: "lambda-env-credentials",
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, (args) => ({
      path: args.resolveDir,
      namespace: ENV_CREDENTIALS_NAMESPACE,
    }));
    build.onLoad({ filter: /.*/, namespace: ENV_CREDENTIALS_NAMESPACE }, (args) => ({
      contents: [
        `import { fromEnv } from "@aws-sdk/credential-provider-env";`,
        `export const defaultProvider = (init = {}) => fromEnv(init);`,
      ].join("\n"),
      resolveDir: args.path,
      loader: "js",
    }));
  },
};

/**
 * The AWS SDK v3 ships inside the nodejs22.x runtime. We bundle our own copy anyway: the
 * runtime's version is whatever AWS last patched in (not the lock file's, not what the tests
 * ran), and bench:cold shows the bundled, tree-shaken, minified SDK initialises faster than the
 * runtime's unbundled one (hundreds of files resolved at import). `externalSdk` exists only so
 * the benchmark can measure the alternative.
 */
export const AWS_SDK_EXTERNAL = ["@aws-sdk/*", "@smithy/*"] as const;

/**
 * Native modules esbuild cannot bundle. Named here for every function, so SST never falls back to
 * its own `npm install sharp@0.32.6` at build time: a function that checks pictures ships the
 * staged copy beside its bundle instead (stacks/native-modules.ts), and one whose bundle merely
 * reaches the lazy import without ever checking a picture (the feeds) ships none.
 */
export const NATIVE_EXTERNAL = ["sharp"] as const;

/** SST v2's NodeJSProps, restated so infra/ need not import sst (stacks check it satisfies it). */
export interface FunctionBundling {
  format: "esm" | "cjs";
  minify: boolean;
  /**
   * Left unset on purpose: SST then generates a source map, takes it out of the deployed zip
   * (no cold-start cost) and uploads it for the SST console. `true` would ship it in the zip.
   */
  sourcemap?: boolean;
  /**
   * ESM code splitting: a dynamic `import()` becomes a chunk loaded when it runs, so the API loads
   * its route sections on demand (packages/functions/src/sections.ts) instead of at cold start.
   */
  splitting?: boolean;
  esbuild: BuildOptions;
}

export interface BundlingOptions {
  /** `sst dev`: the function runs locally through SST's bridge, with the developer's credentials. */
  liveDev?: boolean;
  /** Leave the AWS SDK to the runtime (measurement only; see AWS_SDK_EXTERNAL). */
  externalSdk?: boolean;
}

export function functionBundling({ liveDev = false, externalSdk = false }: BundlingOptions = {}): FunctionBundling {
  return {
    // The lambda entry points await their configuration at module top level: ESM output only.
    format: "esm",
    minify: true,
    splitting: true,
    esbuild: {
      plugins: [
        zodEnglishOnly,
        entrySourceMapOnly,
        pdfkitBundledFonts,
        ...(liveDev || externalSdk ? [] : [lambdaEnvCredentials]),
      ],
      // Lambda's nodejs22.x; esbuild then keeps modern syntax instead of down-levelling it.
      target: "node22",
      // Prefer packages' ESM builds (tree-shakable) and drop their "development" branches.
      mainFields: ["module", "main"],
      define: { "process.env.NODE_ENV": '"production"' },
      // esbuild's default; stated because SST's keepNames (stack traces) is the other cost.
      treeShaking: true,
      legalComments: "none",
      external: [...NATIVE_EXTERNAL, ...(externalSdk ? AWS_SDK_EXTERNAL : [])],
    },
  };
}

/** What SST puts at the top of every ESM bundle (sst/runtime/handlers/node.js). */
const SST_ESM_BANNER = [
  "import { createRequire as topLevelCreateRequire } from 'module';",
  "const require = topLevelCreateRequire(import.meta.url);",
  'import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"',
  'const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))',
].join("\n");

/**
 * esbuild options that build an entry as SST builds a deployed function (the bundling above, ESM,
 * SST's banner): for benchmarks that run code as the cloud runs it, outside SST.
 */
export function deployedBuildOptions(bundling: FunctionBundling = functionBundling()): BuildOptions {
  return {
    ...bundling.esbuild,
    bundle: true,
    platform: "node",
    format: "esm",
    minify: bundling.minify,
    keepNames: true,
    logLevel: "silent",
    banner: { js: SST_ESM_BANNER },
  };
}

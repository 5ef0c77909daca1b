import type { App, FunctionProps } from "sst/constructs";
import { functionBundling } from "../infra/bundling";

/** The files of sharp (and its runtime dependencies) a function that checks images ships beside its bundle. */
export const SHARP_FILES = ["sharp", "@img/colour", "detect-libc", "semver", "@img/sharp-linux-x64", "@img/sharp-libvips-linux-x64"] as const;

/**
 * Props for a function that imports the KYC image checks (sharp). sharp is a native module:
 * esbuild cannot bundle it (nor parse its ESM build, SST's esbuild 0.18 predates import
 * attributes), so it stays external and the installed package, with its Linux x64 binary and
 * libvips, is copied next to the bundle, exactly the build the tests ran. Hence x86_64 for these
 * functions: an arm64 binary would need a cross-platform install at deploy time (network, and
 * SST pins sharp 0.32 for it). Deploy from Linux x64 (CI); elsewhere first
 * `npm install --no-save --os=linux --cpu=x64 sharp` so node_modules holds the Linux binaries.
 * The API function needs the same (it runs the checks of POST /upload and /verify/didit).
 */
export function imageCheckingFunctionProps(app: Pick<App, "mode">): Pick<FunctionProps, "architecture" | "nodejs" | "copyFiles"> {
  const bundling = functionBundling({ liveDev: app.mode === "dev" });
  return {
    architecture: "x86_64",
    nodejs: { ...bundling, esbuild: { ...bundling.esbuild, external: [...(bundling.esbuild.external ?? []), "sharp"] } },
    copyFiles: SHARP_FILES.map((name) => ({ from: `node_modules/${name}`, to: `node_modules/${name}` })),
  };
}

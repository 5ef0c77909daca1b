import type { App, FunctionProps } from "sst/constructs";
import { stagedSharp } from "../infra/native/sharp";

/**
 * Props for a function that checks KYC pictures with sharp (the API and KycObjectCreated). sharp
 * is a native module: esbuild cannot bundle it (nor parse its ESM build, SST's esbuild 0.18
 * predates import attributes), so every bundle leaves it external (infra/bundling.ts) and loads it
 * at the first picture check. These functions ship the package with its Linux arm64 binary and
 * libvips beside the bundle, copied from what infra/native/sharp.ts staged at the lock's version
 * and integrity (`npm run sst:deploy` and the stack tests stage it first), so they run on arm64
 * like every other function.
 *
 * Under `sst dev` the function runs on the developer's machine with its own node_modules, and
 * `sst remove` builds nothing: no copy then.
 */
export function imageCheckingFunctionProps(app: Pick<App, "mode">): Pick<FunctionProps, "architecture" | "copyFiles"> {
  if (app.mode !== "deploy") return { architecture: "arm_64" };
  const staged = stagedSharp("arm64");
  if (!staged) {
    throw new Error(
      "sharp for Linux arm64 is not staged: run `npm run native:stage` (npm run sst:deploy and sst:build do it first)",
    );
  }
  return {
    architecture: "arm_64",
    copyFiles: staged.packages.map(({ name }) => ({
      from: `${staged.nodeModules}/${name}`,
      to: `node_modules/${name}`,
    })),
  };
}

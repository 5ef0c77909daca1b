/**
 * `npm run native:stage` (and the first step of `npm run sst:deploy` / `sst:build`): stages the
 * native modules the functions ship for Lambda (sharp for Linux arm64; see sharp.ts).
 */
import { stageSharp } from "./sharp";

const staged = stageSharp("arm64", { log: (line) => console.log(line) });
console.log(
  `sharp for Linux ${staged.cpu}: ${staged.packages.map((pkg) => `${pkg.name}@${pkg.version}`).join(", ")} in ${staged.nodeModules}`,
);

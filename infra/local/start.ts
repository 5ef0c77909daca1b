import path from "node:path";
import { cliOptions, REPO_ROOT, runUntilSignalled } from "./cli";
import { startLocalStack } from "./stack";

/** `npm start`: the built SPA and the API on one port, data under .data/. */
await runUntilSignalled(
  () =>
    startLocalStack({
      ...cliOptions(process.argv.slice(2), process.env),
      staticDir: path.join(REPO_ROOT, "packages/web/dist"),
    }),
  "Fintech platform",
);

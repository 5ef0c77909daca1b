import type { SSTConfig } from "sst";
import type { NodeJSProps } from "sst/constructs";
import { functionBundling } from "./infra/bundling";
import { Api } from "./stacks/Api";
import { Feeds } from "./stacks/Feeds";
import { deploySettings, logRetentionFor } from "./stacks/settings";
import { Storage } from "./stacks/Storage";
import { Web } from "./stacks/Web";

const config: SSTConfig = {
  config(input) {
    return {
      name: "fintech-platform",
      // `sst deploy --region eu-west-1` (or AWS_REGION) picks another region.
      region: input.region ?? process.env.AWS_REGION ?? "us-east-1",
    };
  },
  stacks(app) {
    const settings = deploySettings(app.stage);
    app.setDefaultFunctionProps({
      // Node 20 is past end of life; 22 is Lambda's current LTS runtime.
      runtime: "nodejs22.x",
      architecture: "arm_64",
      logRetention: logRetentionFor(settings.logRetentionDays),
      // One bundling object for every function, the one `npm run bench:cold` measures.
      nodejs: functionBundling({ liveDev: app.mode === "dev" }) satisfies NodeJSProps,
      environment: {
        STAGE: app.stage,
        LOG_LEVEL: settings.logLevel,
        ALLOW_TEST_BALANCE: String(settings.allowTestBalance),
        CORS_ORIGINS: settings.corsOrigins.join(","),
      },
    });
    // Preview and personal stages are disposable; production keeps whatever it holds.
    if (!settings.retainData) app.setDefaultRemovalPolicy("destroy");

    app.stack(Storage).stack(Api).stack(Feeds).stack(Web);
  },
};

export default config;

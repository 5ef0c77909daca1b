import type { SSTConfig } from "sst";
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
      runtime: "nodejs20.x",
      architecture: "arm_64",
      logRetention: logRetentionFor(settings.logRetentionDays),
      // The lambda entry points await their secrets at module top level: ESM output only.
      nodejs: { format: "esm" },
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

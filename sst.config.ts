import type { SSTConfig } from "sst";
import type { NodeJSProps } from "sst/constructs";
import { functionBundling } from "./infra/bundling";
import { Alerts } from "./stacks/Alerts";
import { Api } from "./stacks/Api";
import { Dashboard } from "./stacks/Dashboard";
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
    // Preview and personal stages are disposable: every resource is deleted with the stage and
    // every bucket emptied first, whatever a stack asked for. Production keeps whatever it
    // holds; resources CDK would delete by default (queues) ask for RETAIN themselves there.
    if (!settings.retainData) app.setDefaultRemovalPolicy("destroy");

    // Alerts first (its topic takes every stack's alarms), Dashboard last (it shows them all).
    app.stack(Alerts).stack(Storage).stack(Api).stack(Feeds).stack(Web).stack(Dashboard);
  },
};

export default config;

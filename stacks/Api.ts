import { FunctionUrlAuthType, InvokeMode } from "aws-cdk-lib/aws-lambda";
import { Config, Function, use, type StackContext } from "sst/constructs";
import { Storage } from "./Storage";

export function Api({ stack }: StackContext) {
  const storage = use(Storage);

  // Bound to the API and the feeds; SST stores the value in SSM (`sst secrets set JWT_SECRET`).
  const jwtSecret = new Config.Secret(stack, "JWT_SECRET");

  const api = new Function(stack, "Api", {
    handler: "packages/functions/src/lambda/api.handler",
    // Below CloudFront's 30 s origin read timeout, so a slow request fails here with a log line.
    timeout: "25 seconds",
    memorySize: "1024 MB",
    environment: storage.environment,
    bind: [jwtSecret],
  });

  // Not `url:` on the Function: that keeps the FunctionUrl construct private, and Web needs it as
  // a CloudFront origin. CORS stays off here because the Hono app answers preflights itself.
  const url = api.addFunctionUrl({
    authType: FunctionUrlAuthType.NONE,
    invokeMode: InvokeMode.BUFFERED,
  });

  // Data-plane grants on exactly these resources; SST's `bind` on a Table would grant dynamodb:*.
  storage.table.cdk.table.grantReadWriteData(api);
  storage.kycBucket.cdk.bucket.grantReadWrite(api);
  storage.settlementsBucket.cdk.bucket.grantReadWrite(api);

  // The nightly reconciliation Cron (infra/spec/schedules.ts) joins this stack with its
  // handler in the reconciliation issue.

  stack.addOutputs({ ApiFunctionUrl: url.url });

  return { api, url, jwtSecret };
}

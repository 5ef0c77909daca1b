import { parseArgs } from "node:util";
import { checkDeploy } from "./check";
import { ssmDeployFacts } from "./facts";

/**
 * `npm run deploy:check -- --stage NAME [--region REGION]`: lists the secrets and settings a
 * deploy of the stage still lacks, reading SSM with the AWS credentials of the shell. Exits 1
 * when anything is missing, 2 when the check itself could not run.
 */
const { values } = parseArgs({ options: { stage: { type: "string" }, region: { type: "string" } } });
if (!values.stage) {
  console.error("Usage: npm run deploy:check -- --stage NAME [--region REGION]");
  process.exit(2);
}
const facts = ssmDeployFacts(values.region ?? process.env.AWS_REGION ?? "us-east-1");
try {
  const report = await checkDeploy({ stage: values.stage, env: process.env, facts });
  console.log(report.lines.join("\n"));
  process.exitCode = report.problems.length === 0 ? 0 : 1;
} catch (error) {
  console.error(
    `deploy:check could not read the stage's secrets: ${(error as Error).message} (are AWS credentials set for the account?)`,
  );
  process.exitCode = 2;
} finally {
  facts.close();
}

import { exportedValue, resourceOf, synth, type SynthesizedApp } from "./testing";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { appTable, kycDocumentsBucket, settlementsBucket } from "../infra/spec";
import { Api } from "./Api";
import { Feeds, FEEDS_TIMEOUT_SECONDS } from "./Feeds";
import { Storage } from "./Storage";

const SYNTH_TIMEOUT_MS = 60_000;

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const actionsOf = (statement: Statement) => [statement.Action].flat();
const resourcesOf = (statement: Statement) => [statement.Resource].flat();

/** Every statement of the policies attached to the role of the function `functionId`. */
function statementsFor(template: Template, functionId: string): Statement[] {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  const role = (fn.Properties!.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
  const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter((policy) =>
    JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]),
  );
  expect(policies.length).toBeGreaterThan(0);
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** Resolves a resource ARN that another stack imports to the producing resource's logical id. */
function arnTarget(storage: Template, resource: unknown): { id: string; suffix: string } {
  const join = (resource as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  const [imported, suffix] = join ? [join[1][0], join[1].slice(1).join("")] : [resource, ""];
  const value = exportedValue(storage, imported) as { "Fn::GetAtt"?: [string, string] };
  expect(value["Fn::GetAtt"]?.[1]).toBe("Arn");
  return { id: value["Fn::GetAtt"]![0], suffix: String(suffix) };
}

function environmentOf(template: Template, functionId: string): Record<string, unknown> {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  return (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
}

const DATA_PLANE_WRITES = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"];

describe.each([
  { stage: "pr-42", production: false },
  { stage: "production", production: true },
])("Api and Feeds functions on stage $stage", ({ stage, production }) => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage });
  }, SYNTH_TIMEOUT_MS);

  const storage = () => built.template(Storage);
  const tableId = () => resourceOf(storage(), "AWS::DynamoDB::Table", appTable.id).id;
  const bucketId = (id: string) => resourceOf(storage(), "AWS::S3::Bucket", id).id;

  describe.each([
    { stack: Api, functionId: "Api", handler: "packages/functions/src/lambda/api.handler" },
    { stack: Feeds, functionId: "Feeds", handler: "packages/functions/src/lambda/feeds.handler" },
  ])("$functionId function", ({ stack, functionId, handler }) => {
    const template = () => built.template(stack);

    it("runs the bundled handler on nodejs20.x / arm64", () => {
      const fn = resourceOf(template(), "AWS::Lambda::Function", functionId);
      expect(fn.Properties).toMatchObject({ Handler: handler, Runtime: "nodejs20.x", Architectures: ["arm64"] });
      // A real esbuild bundle as an S3 asset, not SST's inline placeholder.
      expect(fn.Properties!.Code).toHaveProperty("S3Key");
      template().hasResourceProperties("Custom::LogRetention", {
        LogGroupName: { "Fn::Join": ["", ["/aws/lambda/", { Ref: fn.id }]] },
        RetentionInDays: production ? 365 : 14,
      });
    });

    it("gets the storage names and the stage settings in its environment", () => {
      const env = environmentOf(template(), functionId);
      expect(env).toMatchObject({
        STAGE: stage,
        LOG_LEVEL: production ? "info" : "debug",
        ALLOW_TEST_BALANCE: production ? "false" : "true",
        CORS_ORIGINS: production ? "" : "http://localhost:5173,http://localhost:3000",
      });
      expect(exportedValue(storage(), env.TABLE_NAME)).toEqual({ Ref: tableId() });
      expect(exportedValue(storage(), env.KYC_BUCKET)).toEqual({ Ref: bucketId(kycDocumentsBucket.id) });
      expect(exportedValue(storage(), env.SETTLEMENTS_BUCKET)).toEqual({ Ref: bucketId(settlementsBucket.id) });
    });

    it("is bound to the JWT_SECRET Config.Secret", () => {
      expect(environmentOf(template(), functionId).SST_Secret_value_JWT_SECRET).toBe("__FETCH_FROM_SSM__");
      const ssm = statementsFor(template(), functionId).filter((s) => actionsOf(s).includes("ssm:GetParameters"));
      expect(JSON.stringify(ssm)).toContain(`/sst/fintech-platform/${stage}/Secret/JWT_SECRET/value`);
    });

    it("touches DynamoDB only on the table and its indexes, never with a wildcard", () => {
      const statements = statementsFor(template(), functionId);
      const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith("dynamodb:")));
      expect(dynamo.length).toBeGreaterThan(0);
      for (const statement of dynamo) {
        expect(actionsOf(statement)).not.toContain("dynamodb:*");
        const targets = resourcesOf(statement).map((resource) => {
          expect(resource).not.toBe("*");
          return arnTarget(storage(), resource);
        });
        expect(targets).toEqual([
          { id: tableId(), suffix: "" },
          { id: tableId(), suffix: "/index/*" },
        ]);
      }
      // The only account-wide grant is X-Ray, whose actions take no resource ARNs.
      for (const statement of statements.filter((s) => resourcesOf(s).includes("*"))) {
        expect(actionsOf(statement).every((a) => a.startsWith("xray:"))).toBe(true);
      }
    });

    it("has a function URL without IAM auth or URL-level CORS (the app does CORS)", () => {
      const url = resourceOf(template(), "AWS::Lambda::Url", functionId);
      expect(url.Properties).toMatchObject({ AuthType: "NONE" });
      expect(url.Properties).not.toHaveProperty("Cors");
    });
  });

  it("lets the API read and write the table and both buckets' objects", () => {
    const statements = statementsFor(built.template(Api), "Api");
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining([...DATA_PLANE_WRITES, "dynamodb:Query", "dynamodb:GetItem"]));
    const s3 = statements.filter((s) => actionsOf(s).some((a) => a.startsWith("s3:")));
    const granted = s3.map((statement) => {
      expect(actionsOf(statement)).toEqual(
        expect.arrayContaining(["s3:GetObject*", "s3:PutObject", "s3:DeleteObject*"]),
      );
      return resourcesOf(statement).map((resource) => arnTarget(storage(), resource));
    });
    expect(granted).toEqual(
      [kycDocumentsBucket.id, settlementsBucket.id].map((bucket) => [
        { id: bucketId(bucket), suffix: "" },
        { id: bucketId(bucket), suffix: "/*" },
      ]),
    );
  });

  it("answers API requests buffered", () => {
    const url = resourceOf(built.template(Api), "AWS::Lambda::Url", "Api");
    expect(url.Properties!.InvokeMode).toBe("BUFFERED");
  });

  it("streams the feeds, for up to Lambda's 15 minutes", () => {
    const url = resourceOf(built.template(Feeds), "AWS::Lambda::Url", "Feeds");
    expect(url.Properties!.InvokeMode).toBe("RESPONSE_STREAM");
    const fn = resourceOf(built.template(Feeds), "AWS::Lambda::Function", "Feeds");
    expect(fn.Properties!.Timeout).toBe(FEEDS_TIMEOUT_SECONDS);
    expect(FEEDS_TIMEOUT_SECONDS).toBe(900);
  });

  it("gives the feeds read access only: no writes, no S3", () => {
    const actions = statementsFor(built.template(Feeds), "Feeds").flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:Query", "dynamodb:GetItem"]));
    for (const write of DATA_PLANE_WRITES) expect(actions).not.toContain(write);
    expect(actions.filter((action) => action.startsWith("s3:"))).toEqual([]);
  });

  it("adds no schedule yet", () => {
    built.template(Api).resourceCountIs("AWS::Events::Rule", 0);
  });
});

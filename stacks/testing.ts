/**
 * Offline synthesis of the SST app for the stack tests. Import this module before anything that
 * loads "sst": it fixes the environment first and only loads SST lazily.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Template as TemplateType } from "aws-cdk-lib/assertions";
import type { App as AppType, StackContext } from "sst/constructs";
import { afterAll } from "vitest";
import { stageSharp } from "../infra/native/sharp";

/** A stack function as sst/constructs' `app.stack` takes it (its own type is not exported). */
export type StackFunction = (ctx: StackContext) => unknown;

// SST skips its bootstrap lookups (CloudFormation, SSM) only when NODE_ENV is "test", and the
// AWS SDK must never look for real credentials here.
process.env.NODE_ENV = "test";
process.env.SST_STAGE ??= "test";
process.env.AWS_ACCESS_KEY_ID = "AKIAOFFLINETEST";
process.env.AWS_SECRET_ACCESS_KEY = "offline-test-secret";
process.env.JSII_DEPRECATED = "quiet";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const TEST_ACCOUNT = "123456789012";

const scratch = mkdtempSync(path.join(tmpdir(), "fintech-stacks-"));
let synthesised = false;

// Vitest ends its workers without a normal exit, so clean up when the importing file is done.
afterAll(async () => {
  // SST's logger opens <out>/debug.log lazily and asynchronously; removing the directory before
  // that open has happened makes it fail after the tests. Once open, the unlinked file is fine.
  const log = path.join(scratch, "debug.log");
  for (let waited = 0; synthesised && !existsSync(log) && waited < 2_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** A stand-in for the built SPA, so synthesis never runs Vite. */
function prebuiltSite(): string {
  const dist = path.join(scratch, "web-dist");
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>test</title>");
  return dist;
}

export interface SynthOptions {
  stage: string;
  /** Adds stacks to the app; defaults to sst.config.ts's own `stacks`, i.e. the real app. */
  stacks?: (app: AppType) => void | Promise<void>;
}

export interface SynthesizedApp {
  app: AppType;
  template(stack: StackFunction): TemplateType;
}

/**
 * SST v2's own construct tests use `setProject` rather than `initProject`: no config loading
 * through esbuild, no .env files, no stage prompt, and all output under a temp directory.
 */
export async function synth({ stage, stacks }: SynthOptions): Promise<SynthesizedApp> {
  // SST resolves function handlers, which are relative to the project root, against the cwd.
  if (path.resolve(process.cwd()) !== path.resolve(REPO_ROOT)) {
    try {
      process.chdir(REPO_ROOT);
    } catch (cause) {
      throw new Error(`Run the stack tests from ${REPO_ROOT} (or in a forked pool)`, { cause });
    }
  }
  process.env.WEB_PREBUILT_DIST = prebuiltSite();
  // The functions that check pictures ship the staged sharp (stacks/native-modules.ts): staged
  // here as `npm run sst:deploy` stages it, so what is deployed is what is tested.
  stageSharp("arm64");

  const [{ setProject }, { App }, { Template }, { default: config }] = await Promise.all([
    import("sst/project.js"),
    import("sst/constructs"),
    import("aws-cdk-lib/assertions"),
    import("../sst.config"),
  ]);
  const options = await config.config({ stage });
  const region = options.region ?? "us-east-1";
  setProject({
    version: "2.49.8",
    cdkVersion: "2.224.0",
    constructsVersion: "10.3.0",
    config: { ...options, stage, ssmPrefix: `/sst/${options.name}/${stage}/` },
    stacks: config.stacks,
    metafile: { inputs: {}, outputs: {} },
    paths: {
      root: REPO_ROOT,
      config: path.join(REPO_ROOT, "sst.config.ts"),
      // SST keeps the first project's out and artifacts paths for the whole process anyway.
      out: scratch,
      artifacts: path.join(scratch, "artifacts"),
    },
  });

  synthesised = true;
  const app = new App(
    { mode: "deploy", name: options.name, stage, region, account: TEST_ACCOUNT },
    { outdir: path.join(scratch, stage, "cdk.out") },
  );
  await (stacks ?? config.stacks)(app);
  await app.finish();

  const templates = new Map<StackFunction, TemplateType>();
  return {
    app,
    template(stack) {
      let template = templates.get(stack);
      if (!template) {
        // FunctionalStack names each stack after its function, prefixed with stage and app.
        const child = app.node.findChild(app.logicalPrefixedName(stack.name));
        template = Template.fromStack(child as Parameters<typeof Template.fromStack>[0]);
        templates.set(stack, template);
      }
      return template;
    },
  };
}

/** A CloudFormation resource as Template.toJSON() shows it. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}

/** The one resource of `type` whose logical id starts with `idPrefix` (the construct id). */
export function resourceOf(template: TemplateType, type: string, idPrefix: string): CfnResource & { id: string } {
  const matches = Object.entries(template.findResources(type) as Record<string, CfnResource>).filter(([id]) =>
    id.startsWith(idPrefix),
  );
  if (matches.length !== 1) {
    throw new Error(`Expected one ${type} named ${idPrefix}*, found ${matches.length}`);
  }
  const [id, resource] = matches[0]!;
  return { id, ...resource };
}

/**
 * Follows a cross-stack `Fn::ImportValue` back to the value the producing stack exports, so a
 * test can check that the API's TABLE_NAME really is the Storage table, not just "some value".
 */
export function exportedValue(producer: TemplateType, value: unknown): unknown {
  const name = (value as { "Fn::ImportValue"?: unknown } | null)?.["Fn::ImportValue"];
  if (typeof name !== "string") throw new Error(`Not an import: ${JSON.stringify(value)}`);
  const outputs = (producer.toJSON() as { Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }> })
    .Outputs;
  const output = Object.values(outputs ?? {}).find((candidate) => candidate.Export?.Name === name);
  if (!output) throw new Error(`No export named ${name}`);
  return output.Value;
}

/** One IAM policy statement, as the synthesised templates hold it. */
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

export const actionsOf = (statement: Statement): string[] => [statement.Action].flat();
export const resourcesOf = (statement: Statement): unknown[] => [statement.Resource].flat();

/** Every statement of the policies attached to the role of the function `functionId` (none: an error). */
export function statementsFor(template: TemplateType, functionId: string): Statement[] {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  const role = (fn.Properties!.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
  const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter(
    (policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]),
  );
  if (policies.length === 0) throw new Error(`No IAM policy is attached to the role of ${functionId}`);
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** The environment variables of the function `functionId`. */
export function environmentOf(template: TemplateType, functionId: string): Record<string, unknown> {
  const fn = resourceOf(template, "AWS::Lambda::Function", functionId);
  return (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
}

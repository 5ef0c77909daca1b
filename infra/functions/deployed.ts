/**
 * The Lambda functions of a synthesised app, as CloudFormation will create them: read from the
 * cloud assembly (the templates and the asset folders the zips are made of), so the bundle import
 * test (stacks/bundles.test.ts) and `npm run bench:cold` look at exactly what `sst deploy` uploads.
 * Plain Node: nothing here imports sst or aws-cdk-lib.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** A stack of a synthesised cloud assembly (CloudAssembly.stacks from aws-cdk-lib's cx-api). */
export interface AssemblyStack {
  stackName: string;
  template: unknown;
}

export interface CloudAssemblyLike {
  directory: string;
  stacks: readonly AssemblyStack[];
}

export interface DeployedFunction {
  stackName: string;
  logicalId: string;
  /** As deployed, e.g. `packages/functions/src/lambda/api.handler`. */
  handler: string;
  /** The handler's module in the repository, without extension (`packages/functions/src/lambda/api`). */
  module: string;
  /** The exported function Lambda calls. */
  exportName: string;
  runtime: string;
  architecture: "arm64" | "x86_64";
  memoryMB: number;
  /** The function's environment as the template declares it: strings, or CloudFormation intrinsics. */
  environment: Record<string, unknown>;
  /** The asset folder the deployed zip is made of. */
  assetDir: string;
  /** The built handler file inside the asset folder. */
  handlerFile: string;
}

interface CfnFunction {
  Type: string;
  Properties?: {
    Handler?: string;
    Runtime?: string;
    Architectures?: string[];
    MemorySize?: number;
    Code?: { S3Key?: unknown };
    Environment?: { Variables?: Record<string, unknown> };
  };
}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs"];

/**
 * Every AWS::Lambda::Function of the assembly whose code is an S3 asset and whose handler is a
 * module of this repository: the app's own functions, not the ones aws-cdk-lib adds (log
 * retention, bucket notifications, custom resources), whose handlers live in aws-cdk-lib.
 */
export function deployedFunctions(assembly: CloudAssemblyLike, repoRoot: string): DeployedFunction[] {
  const functions: DeployedFunction[] = [];
  for (const stack of assembly.stacks) {
    const resources = (stack.template as { Resources?: Record<string, CfnFunction> }).Resources ?? {};
    for (const [logicalId, resource] of Object.entries(resources)) {
      if (resource.Type !== "AWS::Lambda::Function") continue;
      const properties = resource.Properties ?? {};
      const key = properties.Code?.S3Key;
      if (typeof key !== "string" || typeof properties.Handler !== "string") continue;
      const dot = properties.Handler.lastIndexOf(".");
      const module = properties.Handler.slice(0, dot);
      if (!SOURCE_EXTENSIONS.some((extension) => existsSync(path.join(repoRoot, module + extension)))) continue;
      const assetDir = path.join(assembly.directory, `asset.${key.replace(/\.zip$/, "")}`);
      const handlerFile = [".mjs", ".js", ".cjs"]
        .map((extension) => path.join(assetDir, module + extension))
        .find((file) => existsSync(file));
      if (!handlerFile) throw new Error(`${stack.stackName}/${logicalId}: no built ${module} in ${assetDir}`);
      functions.push({
        stackName: stack.stackName,
        logicalId,
        handler: properties.Handler,
        module,
        exportName: properties.Handler.slice(dot + 1),
        runtime: properties.Runtime ?? "",
        architecture: properties.Architectures?.[0] === "arm64" ? "arm64" : "x86_64",
        memoryMB: properties.MemorySize ?? 128,
        environment: properties.Environment?.Variables ?? {},
        assetDir,
        handlerFile,
      });
    }
  }
  return functions.sort((a, b) => a.handler.localeCompare(b.handler) || a.logicalId.localeCompare(b.logicalId));
}

/** Every file of an asset folder with its size, relative paths sorted (what the zip holds). */
export function assetFiles(assetDir: string): { file: string; bytes: number }[] {
  return readdirSync(assetDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(assetDir, file), bytes: statSync(file).size };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** A static import of a sibling chunk in esbuild's (minified) ESM output; `import(...)` is not one. */
const STATIC_CHUNK_IMPORT = /\bimport\s*(?!\()(?:[\w$*{},\s]+from\s*)?["'](\.{1,2}\/[^"']+\.mjs)["']/g;

/**
 * The files a cold start loads before the handler is ready: the handler file and, transitively,
 * the chunks it imports statically. A code-split bundle's other chunks load later, at the first
 * request that needs them (packages/functions/src/sections.ts).
 */
export function initialFiles(handlerFile: string): string[] {
  const files = new Set<string>();
  const pending = [handlerFile];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_CHUNK_IMPORT))
      pending.push(path.resolve(path.dirname(file), match[1]!));
  }
  return [...files].sort();
}

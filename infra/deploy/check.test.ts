import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEY_SECRET_NAMES } from "@fintech/core/shared/secret-names";
import { checkDeploy, SST_APP_NAME } from "./check";
import type { DeployFacts } from "./facts";

/** A parameter store in memory, as SSM would answer for the stage. */
function fakeStore(parameters: Record<string, string>): DeployFacts & { asked: string[] } {
  const asked: string[] = [];
  return {
    source: "a fake store",
    asked,
    async parameters(names) {
      asked.push(...names);
      return new Map(names.map((name) => [name, parameters[name] ?? null]));
    },
  };
}

const stagePath = (stage: string, name: string) => `/sst/${SST_APP_NAME}/${stage}/Secret/${name}/value`;
const fallbackPath = (name: string) => `/sst/${SST_APP_NAME}/.fallback/Secret/${name}/value`;
const material = (name: string, version = "1") => `${name.toLowerCase()}-material-${version}-long-enough-for-a-key`;
const allSecrets = (stage: string) =>
  Object.fromEntries(KEY_SECRET_NAMES.map((name) => [stagePath(stage, name), `1:${material(name)}`]));

describe("npm run deploy:check", () => {
  it("lists every missing key secret with the command that sets it, and is not ready", async () => {
    const report = await checkDeploy({ stage: "pr-7", env: {}, facts: fakeStore({}) });
    expect(report.problems).toHaveLength(KEY_SECRET_NAMES.length);
    for (const name of KEY_SECRET_NAMES) {
      expect(report.problems).toContainEqual(
        expect.stringContaining(
          `${name} is not set. Set it: npx sst secrets set ${name} "1:$(openssl rand -hex 32)" --stage pr-7`,
        ),
      );
    }
    expect(report.lines.at(-1)).toBe(`${KEY_SECRET_NAMES.length} problems: not ready to deploy.`);
  });

  it("asks the stage's own parameters and the app-wide fallbacks, and takes either", async () => {
    const parameters: Record<string, string> = {
      ...allSecrets("pr-7"),
      [fallbackPath("CURSOR_KEYS")]: `1:${material("cursor-fallback")}`,
    };
    delete parameters[stagePath("pr-7", "CURSOR_KEYS")];
    const report = await checkDeploy({ stage: "pr-7", env: {}, facts: fakeStore(parameters) });
    expect(report.problems).toEqual([]);
    expect(report.lines).toContainEqual(
      expect.stringContaining("CURSOR_KEYS: 1 version (current 1), from the app-wide fallback"),
    );
    expect(report.lines.at(-1)).toBe("Ready to deploy.");
    const asking = fakeStore({});
    await checkDeploy({ stage: "pr-7", env: {}, facts: asking });
    for (const name of KEY_SECRET_NAMES)
      expect(asking.asked).toEqual(expect.arrayContaining([stagePath("pr-7", name), fallbackPath(name)]));
  });

  it("refuses a malformed keyring and one secret shared by two purposes, never printing a secret", async () => {
    const shared = `1:${material("SESSION_KEYS")}`;
    const store = fakeStore({
      ...allSecrets("pr-7"),
      [stagePath("pr-7", "SESSION_KEYS")]: `2:${material("SESSION_KEYS", "2")},${shared}`,
      [stagePath("pr-7", "CURSOR_KEYS")]: shared,
      [stagePath("pr-7", "API_KEY_HASH_KEYS")]: "a-bare-secret-without-a-version-long-enough",
    });
    const report = await checkDeploy({ stage: "pr-7", env: {}, facts: store });
    expect(report.problems).toEqual([
      "CURSOR_KEYS reuses a secret of SESSION_KEYS: each purpose needs its own",
      expect.stringContaining("API_KEY_HASH_KEYS is not a valid keyring: entry 1 must start with a version"),
    ]);
    expect(report.lines).toContainEqual(expect.stringContaining("SESSION_KEYS: 2 versions (current 2)"));
    const printed = report.lines.join("\n");
    expect(printed).not.toContain("material");
    expect(printed).not.toContain("a-bare-secret");
  });

  it("checks the settings the stacks read: a production stage needs ALARM_EMAIL, the concurrency limit must fit", async () => {
    const production = await checkDeploy({ stage: "production", env: {}, facts: fakeStore(allSecrets("production")) });
    expect(production.problems).toEqual(["ALARM_EMAIL is not set: a production stage's alarms would notify nobody"]);
    expect(production.lines).toContainEqual(
      expect.stringContaining("Lambda concurrency fits the account (limit 1000)"),
    );

    const ready = await checkDeploy({
      stage: "production",
      env: { ALARM_EMAIL: "ops@example.com" },
      facts: fakeStore(allSecrets("production")),
    });
    expect(ready.problems).toEqual([]);

    const tooSmall = await checkDeploy({
      stage: "production",
      env: { ALARM_EMAIL: "ops@example.com", DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "500" },
      facts: fakeStore(allSecrets("production")),
    });
    expect(tooSmall.problems).toEqual([expect.stringContaining("Lambda concurrency does not fit the account")]);
    const notANumber = await checkDeploy({
      stage: "production",
      env: { ALARM_EMAIL: "ops@example.com", DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "lots" },
      facts: fakeStore(allSecrets("production")),
    });
    expect(notANumber.problems).toEqual(["DEPLOY_LAMBDA_CONCURRENCY_LIMIT must be a positive integer, got 'lots'"]);

    const preview = await checkDeploy({ stage: "pr-7", env: {}, facts: fakeStore(allSecrets("pr-7")) });
    expect(preview.problems).toEqual([]);
    expect(preview.notes).toContainEqual(expect.stringContaining("ALARM_EMAIL is not set"));
  });

  it("points out a leftover JWT_SECRET and an origin rotation in progress, without blocking", async () => {
    const store = fakeStore({
      ...allSecrets("pr-7"),
      [stagePath("pr-7", "JWT_SECRET")]: "the-old-root-secret-value-long-enough",
    });
    const report = await checkDeploy({ stage: "pr-7", env: { ORIGIN_SECRET_ROTATION: "true" }, facts: store });
    expect(report.problems).toEqual([]);
    expect(report.notes).toContainEqual(
      expect.stringContaining("JWT_SECRET is still set for this stage and nothing reads it"),
    );
    expect(report.notes).toContainEqual(expect.stringContaining("ORIGIN_SECRET_ROTATION=true"));
    expect(report.lines.join("\n")).not.toContain("the-old-root-secret-value");
  });

  it("knows the SST app's name as sst.config.ts declares it", () => {
    expect(readFileSync(new URL("../../sst.config.ts", import.meta.url), "utf8")).toContain(`name: "${SST_APP_NAME}"`);
  });
});

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@fintech/functions/app";
import { LocalPaymentWorker } from "../local/payment-worker";
import { LocalWebhookDispatcher } from "../local/webhook-dispatcher";
import { closeServer, createLocalHost, listen } from "../local/server";
import { createTestContext } from "@fintech/testing/context";
import type { CoreContext } from "@fintech/core/shared/context";
import { verifyForTests } from "@fintech/testing/limits";
import {
  extractExamples,
  loadPages,
  PageSession,
  REPO_ROOT,
  SCRATCH_IN_REPO,
  typeCheckExamples,
  type RunnerPage,
  type SkippedExample,
} from "./examples-runner";

/**
 * Every shell and TypeScript example of the developer pages (the five guides of
 * /developers/docs, /developers/quickstart, /developers/examples) runs against the real app
 * over HTTP, page by page, in order, and must exit 0 and print what the page says it prints.
 * Each page gets a fresh table and server with its payment worker and webhook dispatcher (like a
 * reader on a fresh `npm start`: payments complete and webhooks go out in the background), and the
 * variables its "Before you start" section asks for: BASE_URL, and for pages that need them a
 * freshly registered user's EMAIL, PASSWORD, TOKEN and an API_KEY.
 */

const pages = await loadPages();
const EXAMPLE_TIMEOUT_MS = 60_000;
const PASSWORD = "correct horse battery staple";

let scratch: string;
const ran = { shell: 0, typescript: 0 };
const skipped: SkippedExample[] = [];

beforeAll(() => {
  for (const tool of ["bash", "curl", "jq"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      throw new Error(`The guides' shell examples need ${tool}: install it (Debian: apt-get install -y ${tool})`);
    }
  }
  if (!existsSync(path.join(REPO_ROOT, "packages/sdk/package.json")))
    throw new Error("The TypeScript examples import @fintech/sdk (packages/sdk)");
  scratch = mkdtempSync(path.join(os.tmpdir(), "docs-examples-"));
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  rmSync(SCRATCH_IN_REPO, { recursive: true, force: true });
  console.log(
    `Developer page examples: ${ran.shell} shell and ${ran.typescript} TypeScript blocks ran on ${pages.length} pages; ` +
      `${skipped.length} marked not runnable:\n${skipped.map((entry) => `  ${entry.where} (${entry.language}): ${entry.because}`).join("\n")}`,
  );
});

async function json(response: Response): Promise<Record<string, any>> {
  const body = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** The values a page's "Before you start" exports stand for, made real on this server. */
async function environmentFor(page: RunnerPage, baseUrl: string, core: CoreContext): Promise<Record<string, string>> {
  const environment: Record<string, string> = { BASE_URL: baseUrl };
  const needsUser = page.requires.some((name) => name !== "BASE_URL");
  if (!needsUser) return environment;
  const email = `reader-${page.id}@example.com`;
  const registered = await json(
    await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD, first_name: "Docs", last_name: "Reader" }),
    }),
  );
  const token: string = registered.data.token;
  // The reader has verified their identity, as paying anyone but oneself requires (the payments
  // guide says so): a reviewer's approval, given here the way an administrator would.
  await verifyForTests(core, registered.data.user.id as string);
  const available: Record<string, () => Promise<string>> = {
    EMAIL: async () => email,
    PASSWORD: async () => PASSWORD,
    TOKEN: async () => token,
    API_KEY: async () => {
      const created = await json(
        await fetch(`${baseUrl}/api/v1/api-keys`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: `docs ${page.id}` }),
        }),
      );
      return created.data.key as string;
    },
  };
  for (const name of page.requires) {
    if (name === "BASE_URL") continue;
    const make = available[name];
    if (!make) throw new Error(`${page.route} ${page.id} requires ${name}, which the example runner cannot provide`);
    environment[name] = await make();
  }
  return environment;
}

describe("the developer pages' examples run against the real API", () => {
  it("finds the pages and their examples", () => {
    expect(pages.map((page) => `${page.route}#${page.id}`)).toEqual([
      "/developers/docs#getting-started",
      "/developers/docs#authentication",
      "/developers/docs#ledger",
      "/developers/docs#payments",
      "/developers/docs#realtime",
      "/developers/quickstart#quickstart",
      "/developers/examples#examples",
    ]);
    const all = pages.flatMap((page) => extractExamples(page).examples);
    expect(all.filter((example) => example.language === "shell").length).toBeGreaterThan(20);
    expect(all.filter((example) => example.language === "typescript").length).toBeGreaterThan(5);
  });

  it("runs a page's blocks as one shell session: exports carry over, a failing command fails its block", async () => {
    const session = new PageSession("runner-self-check", path.join(scratch, "runner-self-check"), {
      BASE_URL: "http://127.0.0.1:9",
    });
    const run = (language: "shell" | "typescript", code: string) =>
      session.run({ where: "self-check", language, code }, EXAMPLE_TIMEOUT_MS);
    expect(await run("shell", "export GREETING=hello\nLOCAL_ONLY=1")).toMatchObject({ exitCode: 0 });
    expect(await run("shell", 'echo "$GREETING ${LOCAL_ONLY:-unset} $BASE_URL"')).toMatchObject({
      exitCode: 0,
      stdout: "hello unset http://127.0.0.1:9\n",
    });
    expect((await run("shell", "false\necho never")).exitCode).not.toBe(0);
    expect((await run("shell", "curl -sS --fail-with-body http://127.0.0.1:9/ | cat")).exitCode).not.toBe(0); // pipefail
    expect(await run("typescript", "console.log(process.env.GREETING);")).toMatchObject({
      exitCode: 0,
      stdout: "hello\n",
    });
    expect((await run("typescript", "throw new Error('boom');")).exitCode).not.toBe(0);
  }, 60_000);

  it("every TypeScript block type-checks (strict) against the SDK's types", () => {
    const { files, exitCode, output } = typeCheckExamples(pages);
    expect(files).toBeGreaterThan(5);
    expect(exitCode, output).toBe(0);
  }, 120_000);

  it.each(pages.map((page) => [`${page.route} ${page.id}`, page] as const))(
    "%s: every shell and TypeScript block exits 0 and prints what it promises",
    async (_name, page) => {
      const { examples, skipped: notRunnable } = extractExamples(page);
      skipped.push(...notRunnable);
      const paymentWorker = new LocalPaymentWorker();
      // The webhook examples run a receiver on this machine, as `npm start` allows.
      const core = await createTestContext({ WEBHOOK_LOCAL_TARGETS: "true" }, { paymentScheduler: paymentWorker });
      paymentWorker.start(core);
      const webhookDispatcher = new LocalWebhookDispatcher().start(core);
      const server: Server = await listen(createLocalHost(createApp(core), null), 0);
      try {
        const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        const session = new PageSession(
          page.id,
          path.join(scratch, page.id),
          await environmentFor(page, baseUrl, core),
        );
        for (const example of examples) {
          const result = await session.run(example, EXAMPLE_TIMEOUT_MS);
          const report = `${example.where} (${example.language})\n--- code\n${example.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
          expect(result.timedOut, `timed out after ${EXAMPLE_TIMEOUT_MS} ms: ${report}`).toBe(false);
          expect(result.exitCode, `exit code: ${report}`).toBe(0);
          if (example.expectOutput) expect(result.stdout, `output: ${report}`).toMatch(example.expectOutput);
          ran[example.language] += 1;
        }
      } finally {
        await closeServer(server);
        await webhookDispatcher.stop();
        await paymentWorker.stop();
        await core.dispose();
      }
    },
    300_000,
  );
});

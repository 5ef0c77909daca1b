import "./testing";
import { describe, expect, it } from "vitest";
import config from "../sst.config";
import {
  concurrencyProblems,
  DEFAULT_ACCOUNT_CONCURRENCY_LIMIT,
  LAMBDA_MIN_UNRESERVED,
  LOCAL_ORIGINS,
  PAYMENT_WORKER_MAX_CONCURRENCY,
  WEBHOOK_DISPATCHER_MAX_CONCURRENCY,
  PRODUCTION_API_RESERVED,
  PRODUCTION_UNRESERVED,
  stageSettings,
  unreservedConcurrency,
} from "../infra/stage";
import { deploySettings, logRetentionFor } from "./settings";

describe("sst.config.ts", () => {
  it("names the app and defaults to us-east-1, overridable per deploy", async () => {
    const previous = process.env.AWS_REGION;
    delete process.env.AWS_REGION;
    try {
      expect(await config.config({})).toEqual({ name: "fintech-platform", region: "us-east-1" });
      expect((await config.config({ region: "eu-west-1" })).region).toBe("eu-west-1");
    } finally {
      if (previous !== undefined) process.env.AWS_REGION = previous;
    }
  });
});

describe("deploy settings", () => {
  it("admits the local dev servers outside production only", () => {
    expect(deploySettings("pr-42", {}).corsOrigins).toEqual([...LOCAL_ORIGINS]);
    expect(deploySettings("production", {}).corsOrigins).toEqual([]);
  });

  it("lets DEPLOY_CORS_ORIGINS replace the origins, ignoring blanks", () => {
    const settings = deploySettings("production", {
      DEPLOY_CORS_ORIGINS: " https://app.example.com, ,https://admin.example.com ",
    });
    expect(settings.corsOrigins).toEqual(["https://app.example.com", "https://admin.example.com"]);
    expect(settings.retainData).toBe(true);
  });

  it("maps retention days to SST's names and refuses days CloudWatch lacks", () => {
    expect(logRetentionFor(14)).toBe("two_weeks");
    expect(logRetentionFor(365)).toBe("one_year");
    expect(() => logRetentionFor(13)).toThrow(/13 days/);
  });
});

describe("Lambda concurrency per stage", () => {
  it("reserves in production: the API's and the worker's floors, the feeds' ceiling from what the account has left", () => {
    const { concurrency } = stageSettings("production");
    expect(concurrency.accountLimit).toBe(DEFAULT_ACCOUNT_CONCURRENCY_LIMIT);
    expect(concurrency.reserved).toEqual({ api: 300, paymentWorker: 10, webhookDispatcher: 5, feeds: 485 });
    // 1,000 - 300 - 10 - 5 - 485: AWS's 100 plus 100 for the functions without a reservation.
    expect(unreservedConcurrency(concurrency)).toBe(PRODUCTION_UNRESERVED);
    expect(PRODUCTION_UNRESERVED).toBeGreaterThanOrEqual(LAMBDA_MIN_UNRESERVED);
    expect(concurrency.reserved.paymentWorker).toBeGreaterThanOrEqual(PAYMENT_WORKER_MAX_CONCURRENCY);
    expect(concurrencyProblems(concurrency)).toEqual([]);
  });

  it("grows only the feeds' ceiling with a raised account quota", () => {
    const { concurrency } = deploySettings("production", { DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "12000" });
    expect(concurrency.reserved).toEqual({
      api: PRODUCTION_API_RESERVED,
      paymentWorker: PAYMENT_WORKER_MAX_CONCURRENCY,
      webhookDispatcher: WEBHOOK_DISPATCHER_MAX_CONCURRENCY,
      feeds:
        12_000 -
        PRODUCTION_UNRESERVED -
        PRODUCTION_API_RESERVED -
        PAYMENT_WORKER_MAX_CONCURRENCY -
        WEBHOOK_DISPATCHER_MAX_CONCURRENCY,
    });
    expect(unreservedConcurrency(concurrency)).toBe(PRODUCTION_UNRESERVED);
  });

  it("reserves nothing on previews, which therefore deploy into an account with any quota, even a new account's 10", () => {
    for (const stage of ["pr-42", "alice"]) {
      const { concurrency } = deploySettings(stage, { DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "10" });
      expect(concurrency.reserved).toEqual({ api: null, feeds: null, paymentWorker: null, webhookDispatcher: null });
      expect(unreservedConcurrency(concurrency)).toBe(10);
      expect(concurrencyProblems(concurrency)).toEqual([]);
    }
  });

  it("refuses reservations that leave AWS's unreserved minimum short, and says by how much", () => {
    // 600: the floors (315) and AWS's 100 fit, and the feeds' ceiling would be 600 - 200 - 315 = 85,
    // leaving 200 unreserved: fine. 500 leaves the feeds -15: refused.
    expect(() => deploySettings("production", { DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "600" })).not.toThrow();
    expect(() => deploySettings("production", { DEPLOY_LAMBDA_CONCURRENCY_LIMIT: "500" })).toThrow(
      /feeds reservation must be a positive integer, got -15/,
    );
    expect(
      concurrencyProblems({
        accountLimit: 1000,
        reserved: { api: 500, feeds: 420, paymentWorker: 10, webhookDispatcher: null },
      }),
    ).toEqual(["reservations leave 70 of the account's 1000 executions unreserved; AWS requires at least 100"]);
  });

  it("refuses a worker reservation below the SQS event source's maxConcurrency, and a zero reservation (a switched-off function)", () => {
    expect(
      concurrencyProblems({
        accountLimit: 1000,
        reserved: { api: 100, feeds: 100, paymentWorker: 5, webhookDispatcher: null },
      }),
    ).toEqual([
      `payment worker reservation 5 is below the SQS event source's maxConcurrency ${PAYMENT_WORKER_MAX_CONCURRENCY}`,
    ]);
    expect(
      concurrencyProblems({
        accountLimit: 1000,
        reserved: { api: 0, feeds: null, paymentWorker: null, webhookDispatcher: null },
      }),
    ).toEqual(["api reservation must be a positive integer, got 0"]);
  });

  it("refuses a concurrency limit that is not a positive integer", () => {
    for (const text of ["0", "-5", "1.5", "lots"]) {
      expect(() => deploySettings("production", { DEPLOY_LAMBDA_CONCURRENCY_LIMIT: text }), text).toThrow(
        /DEPLOY_LAMBDA_CONCURRENCY_LIMIT must be a positive integer/,
      );
    }
  });
});

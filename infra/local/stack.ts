import { readdirSync, rmSync, writeFileSync } from "node:fs";
import type { RequestListener, Server } from "node:http";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApp } from "@fintech/functions/app";
import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import { kycDocumentsBucket, settlementsBucket } from "../resources/buckets";
import { stageSettings } from "../stage";
import { ensureTable } from "./bootstrap";
import { deliverKycObjectEvents } from "./kyc-object-events";
import { deliverSettlementObjectEvents } from "./settlement-object-events";
import { LocalSettlementNightly } from "./settlement-nightly";
import { LocalPaymentWorker } from "./payment-worker";
import { LocalIntegrityWorker } from "./integrity-worker";
import { LocalWebhookDispatcher, type LocalWebhookDispatcherOptions } from "./webhook-dispatcher";
import { LocalMailSink } from "./mail-sink";
import { DATA_LOCK_FILE, lockDataDir } from "./data-lock";
import { startDynamoDbLocal } from "./dynamodb-local";
import { LOOPBACK, isPortFree } from "./ports";
import { startS3Emulator } from "./s3-emulator";
import { localKeyEnv } from "./keys";
import { seedLocalData } from "./seed";
import { closeServer, createLocalHost, listen, listenWith } from "./server";
import { EMBEDDED_FEED_SETTINGS } from "./feed-settings";

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Where DynamoDB Local and the S3 emulator keep data; null keeps everything in memory / a temp dir. */
  dataDir: string | null;
  /** Delete dataDir first. */
  fresh: boolean;
  /** Built SPA to serve next to the API (null: API only). */
  staticDir: string | null;
  /**
   * Environment overrides (SESSION_KEYS and the other keyrings, ADMIN_EMAIL, LOG_LEVEL, ...);
   * defaults to process.env.
   */
  env?: Record<string, string | undefined>;
  /** Replaces the default static host, e.g. with Vite's dev middleware. */
  listener?: (api: ReturnType<typeof createApp>) => Promise<RequestListener> | RequestListener;
  /** The webhook dispatcher's settings (the benchmark gives it its own clock). */
  webhookDispatcher?: LocalWebhookDispatcherOptions;
}

export interface LocalStack {
  url: string;
  config: AppConfig;
  core: CoreContext;
  /** Drives the payments' lifecycle (timers + sweep); its idle() lets tests wait for it. */
  paymentWorker: LocalPaymentWorker;
  /** Delivers webhooks from the endpoints' cursors (on commit hints and a poll), as the cloud's queue and functions do. */
  webhookDispatcher: LocalWebhookDispatcher;
  /** The platform's outgoing mail, delivered as files to `mail.dir` (`npm run mail:list` reads them). */
  mail: LocalMailSink;
  endpoints: { dynamodb: string; s3: string };
  stop(): Promise<void>;
}

/** Written beside the data while the stack runs, so `npm run admin:create` can find it. */
export const LOCAL_ENDPOINTS_FILE = "local-endpoints.json";

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(
      `Port ${port} is already in use. Stop whatever is using it, or start on another port: PORT=${port + 1} npm start`,
    );
    this.name = "PortInUseError";
  }
}

/** --fresh: everything in the data directory goes, except the lock this process holds. */
function clearDataDir(dataDir: string): void {
  for (const entry of readdirSync(dataDir)) {
    if (entry !== DATA_LOCK_FILE) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
}

/**
 * The embedded default: DynamoDB Local + S3 emulator + the Hono app (+ the SPA) on one port.
 * Whatever was started is stopped again if a later step fails, so nothing is left running.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const env = options.env ?? process.env;
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    stops.length = 0;
  };

  try {
    if (options.dataDir) {
      // Taken first and released last: nothing below may touch a directory another stack uses.
      const lock = lockDataDir(options.dataDir);
      stops.push(async () => lock.release());
    }
    if (options.port !== 0 && !(await isPortFree(options.port))) throw new PortInUseError(options.port);
    if (options.dataDir && options.fresh) clearDataDir(options.dataDir);
    const scratch = options.dataDir ? null : mkdtempSync(path.join(os.tmpdir(), "fintech-local-"));
    if (scratch) stops.push(async () => rmSync(scratch, { recursive: true, force: true }));

    const dynamo = await startDynamoDbLocal({
      dataDir: options.dataDir ? path.join(options.dataDir, "dynamodb") : undefined,
    });
    stops.push(() => dynamo.stop());

    const httpPort = options.port;
    const siteOrigin = (port: number) => [`http://${LOOPBACK}:${port}`, `http://localhost:${port}`];
    const bucketNames = {
      kyc: env.KYC_BUCKET ?? kycDocumentsBucket.localName,
      settlements: env.SETTLEMENTS_BUCKET ?? settlementsBucket.localName,
    };
    const s3 = await startS3Emulator({
      directory: path.join(options.dataDir ?? scratch!, "s3"),
      corsOrigins: httpPort === 0 ? ["*"] : siteOrigin(httpPort),
      bucketNames,
    });
    stops.push(() => s3.stop());

    const config = loadConfig({
      STAGE: "local",
      LOG_LEVEL: "info",
      ALLOW_TEST_BALANCE: String(stageSettings("local").allowTestBalance),
      TABLE_NAME: "fintech-local",
      ...EMBEDDED_FEED_SETTINGS,
      // A receiver on this machine (`npm run webhooks:listen`) may be a webhook endpoint here, and only here.
      WEBHOOK_LOCAL_TARGETS: "true",
      ...env,
      KYC_BUCKET: bucketNames.kyc,
      SETTLEMENTS_BUCKET: bucketNames.settlements,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      // One keyring per purpose, kept beside the data so sessions and API keys survive restarts.
      ...localKeyEnv(options.dataDir, env),
      CORS_ORIGINS: env.CORS_ORIGINS ?? (httpPort === 0 ? "" : siteOrigin(httpPort).join(",")),
    });
    // Payments advance on timers and a periodic sweep, as the cloud's queue and sweeper drive them.
    const paymentWorker = new LocalPaymentWorker();
    // Whole-ledger integrity checks run a page at a time in this process, as the cloud's queue runs them.
    const integrityWorker = new LocalIntegrityWorker();
    const core = createContext(config, { paymentScheduler: paymentWorker, integrityJobs: integrityWorker });
    await ensureTable(core.db);
    // Presigned uploads into the KYC bucket run the document checks, as the cloud's S3 notification does.
    const kycObjectEvents = deliverKycObjectEvents(s3.server, core);
    stops.push(() => kycObjectEvents.stop());
    // Settlement files dropped under incoming/ are reconciled, as the cloud's S3 notification does.
    const settlementObjectEvents = deliverSettlementObjectEvents(s3.server, core);
    stops.push(() => settlementObjectEvents.stop());
    await seedLocalData(core, env);
    // Stopped after the server has closed (no new payments) and before DynamoDB Local stops.
    paymentWorker.start(core);
    stops.push(() => paymentWorker.stop());
    integrityWorker.start(core);
    stops.push(() => integrityWorker.stop());
    const webhookDispatcher = new LocalWebhookDispatcher(options.webhookDispatcher).start(core);
    stops.push(() => webhookDispatcher.stop());
    const settlementNightly = new LocalSettlementNightly().start(core);
    stops.push(() => settlementNightly.stop());
    // Queued mail goes to files beside the data, as SES would send it in the cloud.
    const mail = new LocalMailSink(path.join(options.dataDir ?? scratch!, "mail")).start(core);
    stops.push(() => mail.stop());

    const metrics = createRequestMetrics(core);
    const api = createApp(core, { metrics });
    // Runs after the server has closed and before DynamoDB Local stops: the last figures are
    // written and no flush timer fires at a store that is gone.
    stops.push(async () => {
      await metrics.flush({ includeCurrent: true }).catch(() => undefined);
      metrics.stop();
    });
    let server: Server;
    if (options.listener) {
      server = await listenWith(await options.listener(api), httpPort);
    } else {
      server = await listen(
        createLocalHost(api, options.staticDir, { documentStoreOrigins: [s3.endpoint], mail }),
        httpPort,
      );
    }
    stops.push(() => closeServer(server));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : httpPort;
    if (options.dataDir) {
      const endpointsFile = path.join(options.dataDir, LOCAL_ENDPOINTS_FILE);
      writeFileSync(
        endpointsFile,
        JSON.stringify({
          dynamodb: dynamo.endpoint,
          s3: s3.endpoint,
          table: config.TABLE_NAME,
          url: `http://localhost:${port}`,
        }),
      );
      stops.push(async () => rmSync(endpointsFile, { force: true }));
    }

    return {
      url: `http://localhost:${port}`,
      config,
      core,
      paymentWorker,
      webhookDispatcher,
      mail,
      endpoints: { dynamodb: dynamo.endpoint, s3: s3.endpoint },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortInUseError(options.port);
    throw error;
  }
}

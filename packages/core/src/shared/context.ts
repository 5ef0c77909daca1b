import type { AppConfig } from "./config";
import { createDatabase, type Database } from "./dynamo";
import { createLogger, type Logger } from "./logger";
import { createObjectStorage, type ObjectStorage } from "./storage";
import type { PaymentScheduler } from "../payments/scheduler";
import type { IntegrityJobQueue } from "../ledger/integrity-queue";

/** Everything a core service needs from the outside world, built once per process. */
export interface CoreContext {
  config: AppConfig;
  db: Database;
  storage: ObjectStorage;
  logger: Logger;
  clock: () => Date;
  /** Runs a payment's next step when it is due (queue or timer); optional: the sweeper finds due steps without it. */
  paymentScheduler?: PaymentScheduler;
  /**
   * Runs a started whole-ledger integrity check's steps (queue or local worker); optional: tests
   * run the steps themselves.
   */
  integrityJobs?: IntegrityJobQueue;
  /**
   * Resolves a webhook target's host name to its addresses; optional: the system resolver
   * (dns.lookup) otherwise. Tests give one to make a name resolve where they need it.
   */
  resolveHost?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export function createContext(config: AppConfig, overrides: Partial<Omit<CoreContext, "config">> = {}): CoreContext {
  return {
    config,
    db: overrides.db ?? createDatabase(config),
    storage: overrides.storage ?? createObjectStorage(config),
    logger: overrides.logger ?? createLogger(config.LOG_LEVEL, { stage: config.STAGE }),
    clock: overrides.clock ?? (() => new Date()),
    ...(overrides.paymentScheduler ? { paymentScheduler: overrides.paymentScheduler } : {}),
    ...(overrides.integrityJobs ? { integrityJobs: overrides.integrityJobs } : {}),
    ...(overrides.resolveHost ? { resolveHost: overrides.resolveHost } : {}),
  };
}

import { fileURLToPath } from "node:url";

/**
 * Entry files of the child processes that the cross-process property tests start with Node and
 * tsx, one per simulated Lambda instance. Tests import these paths, never the entry modules
 * themselves: importing an entry module runs it.
 */
export const LEDGER_PROCESS_CLIENT = fileURLToPath(new URL("./ledger/process-client.ts", import.meta.url));
export const FEED_WRITER = fileURLToPath(new URL("./feed-writer.ts", import.meta.url));
export const WEBHOOK_DISPATCHER = fileURLToPath(new URL("./webhooks/dispatcher-process.ts", import.meta.url));

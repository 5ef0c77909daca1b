/**
 * @fintech/sdk: a typed client for the Fintech Platform API, generated from its OpenAPI document.
 * Browser-safe: fetch, AbortSignal and crypto.randomUUID only.
 */
export { createFintechClient, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "./client";
export type {
  FintechApi,
  FintechClient,
  FintechClientOptions,
  FintechCredential,
  FintechMethod,
  StreamEventOf,
  StreamPath,
  StreamQuery,
} from "./client";
export { FintechError, FINTECH_ERROR_CODES, codeForStatus, isFintechError, parseRetryAfter } from "./errors";
export type { FintechErrorCode, FintechErrorDetails } from "./errors";
export { DEFAULT_BACKOFF, backoffPolicy, retryDelayMs } from "./backoff";
export type { BackoffOptions, BackoffPolicy } from "./backoff";
export type { StreamEvent, StreamOptions } from "./stream";
export {
  createTransport,
  IDEMPOTENCY_KEY_HEADER,
  isWriteMethod,
  withIdempotencyKey,
} from "./transport";
export type { FetchFunction, SendOptions, Transport, TransportOptions } from "./transport";
export type { components, operations, paths } from "./generated/schema";
export type { streamEvents } from "./generated/streams";
export { operationScopes } from "./generated/scopes";

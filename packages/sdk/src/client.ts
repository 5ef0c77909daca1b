import createClient, { type FetchOptions, type FetchResponse, type Middleware } from "openapi-fetch";
import type { FilterKeys, HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import { backoffPolicy, type BackoffOptions } from "./backoff";
import type { paths } from "./generated/schema";
import type { streamEvents } from "./generated/streams";
import { createStreamReader, type CURSOR_EVENT, type StreamEvent, type StreamOptions } from "./stream";
import { createTransport, type FetchFunction } from "./transport";

/** The bearer credential: an API key (`fpk_...`) or a session token; neither for public routes only. */
export type FintechCredential = { apiKey?: string; token?: never } | { token?: string; apiKey?: never };

export type FintechClientOptions = FintechCredential & {
  /** Where the API is, e.g. "http://localhost:3000" (paths start with /api/...). */
  baseUrl: string;
  /** Time limit of each attempt. Default 30000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 5xx and 429. Default 3. */
  retries?: number;
  /** The fetch to use; default globalThis.fetch. Tests wrap it to drop or delay replies. */
  fetch?: FetchFunction;
  /** Backoff tuning, and an injectable sleep for tests. */
  backoff?: BackoffOptions;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

// openapi-fetch's client types are written for its own generic `Paths extends {}` and checked
// only inside its declaration file; these mirror them (MaybeOptionalInit, InitParam) for the
// generated `paths` interface, whose path items are not index signatures.
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
type OperationOf<PathInfo, Method extends HttpMethod> = FilterKeys<PathInfo, Method>;
type InitOf<Operation> =
  RequiredKeysOf<FetchOptions<Operation>> extends never ? FetchOptions<Operation> | undefined : FetchOptions<Operation>;

/** openapi-fetch's reply without its error branch: every failure throws FintechError instead. */
type Succeeded<Reply> = Reply extends { data: infer Data; error?: never } ? { data: Data; response: Response } : never;
type ReplyOf<Operation, Init> =
  Operation extends Record<string | number, unknown> ? Succeeded<FetchResponse<Operation, Init, MediaType>> : never;

export type FintechMethod<Paths extends {}, Method extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends InitOf<OperationOf<Paths[Path], Method>>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<ReplyOf<OperationOf<Paths[Path], Method>, Init>>;

/** The typed API: openapi-fetch's client whose calls return `{ data, response }` or throw FintechError. */
export interface FintechApi<Paths extends {} = paths> {
  GET: FintechMethod<Paths, "get">;
  POST: FintechMethod<Paths, "post">;
  PUT: FintechMethod<Paths, "put">;
  PATCH: FintechMethod<Paths, "patch">;
  DELETE: FintechMethod<Paths, "delete">;
  /** openapi-fetch middleware (e.g. logging): runs once per call, outside the SDK's retries. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}

/** Paths whose GET answers with server-sent events. */
export type StreamPath<Paths = paths> = {
  [Path in keyof Paths]: Paths[Path] extends {
    get: { responses: { 200: { content: { "text/event-stream": unknown } } } };
  }
    ? Path
    : never;
}[keyof Paths] &
  string;

/** A stream's query parameters as the document declares them. */
export type StreamQuery<Path extends keyof Paths, Paths = paths> = Paths[Path] extends {
  get: { parameters: { query?: infer Query } };
}
  ? NonNullable<Query>
  : never;

type EventsOf<Path> = Path extends keyof streamEvents ? streamEvents[Path] : never;

/**
 * The events a stream yields: a union discriminated by `event` (so `data` narrows with it) for
 * streams whose events the document lists; else any name with unknown data.
 */
export type StreamEventOf<Path> = [EventsOf<Path>] extends [never]
  ? StreamEvent
  : {
      [Name in Exclude<keyof EventsOf<Path>, typeof CURSOR_EVENT> & string]: StreamEvent<EventsOf<Path>[Name], Name>;
    }[Exclude<keyof EventsOf<Path>, typeof CURSOR_EVENT> & string];

export interface FintechClient {
  api: FintechApi;
  /** Server-sent events of `path` as an async iterable that resumes on its own (see README). */
  stream<Path extends StreamPath>(
    path: Path,
    options?: StreamOptions<StreamQuery<Path>>,
  ): AsyncGenerator<StreamEventOf<Path>, void, undefined>;
}

export function createFintechClient(options: FintechClientOptions): FintechClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const backoff = backoffPolicy(options.backoff);
  const send = createTransport({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    credential: options.apiKey ?? options.token ?? null,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_RETRIES,
    backoff,
  });
  // Lists in query strings are comma-separated (style form, explode false), as the document
  // declares them and the server parses them.
  const client = createClient<paths>({
    baseUrl,
    fetch: (request) => send(request),
    querySerializer: { array: { style: "form", explode: false } },
  });
  const stream = createStreamReader({ baseUrl, send, backoff });
  return {
    // The transport throws for every reply that is not 2xx, so openapi-fetch's error branch never
    // happens: the narrower type says so.
    api: client as unknown as FintechApi,
    // The reader parses whatever the server sends; the generated event map is the contract for it.
    stream: <Path extends StreamPath>(path: Path, streamOptions?: StreamOptions<StreamQuery<Path>>) =>
      stream(path, streamOptions as StreamOptions<object> | undefined) as AsyncGenerator<
        StreamEventOf<Path>,
        void,
        undefined
      >,
  };
}

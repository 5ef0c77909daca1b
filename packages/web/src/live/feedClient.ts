import {
  connectionStatus,
  feedReducer,
  initialFeedState,
  isDuplicate,
  reconnectDelayMs,
  type ConnectionStatus,
  type FeedAction,
  type FeedState,
} from "./feedState";
import { ANY_EVENT, type EventSourceLike, type StreamErrorEvent } from "./streamSource";

/**
 * The server's `cursor` message (ledger and KYC streams alike): no event, only a new `id:` (the
 * stream's starting point, then one with each heartbeat), so a stream cut before its first event
 * still resumes exactly.
 */
export const CURSOR_EVENT_NAME = "cursor";
/** The server's last message on a stream whose session was signed out or API key revoked. */
export const UNAUTHORIZED_EVENT_NAME = "unauthorized";
const CONTROL_EVENTS = new Set([CURSOR_EVENT_NAME, UNAUTHORIZED_EVENT_NAME]);

/** What tells one stream from another: its name in the logs, its events and how to read them. */
export interface LiveStream<E> {
  /** Starts every log line ("Ledger stream", "KYC stream"). */
  label: string;
  /**
   * Every `event:` name the stream sends; the client listens to each (EventSource needs the names).
   * ANY_EVENT: all of them.
   */
  eventNames: readonly string[];
  /** One SSE message as an event, or null when its data is malformed (logged and dropped). */
  parse(name: string, data: string): E | null;
}

/**
 * An SSE message's `data:` as a JSON object, or null when it is not JSON or not an object (the
 * parsers' common first step).
 */
export function jsonObjectOf(data: string): Record<string, unknown> | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  return typeof payload === "object" && payload !== null && !Array.isArray(payload)
    ? (payload as Record<string, unknown>)
    : null;
}

/**
 * Where a new connection starts: a credential (a fresh ticket, or the bearer token), and the id of
 * the last event seen (null on a first connection).
 */
export interface ResumePoint {
  credential: string;
  lastEventId: string | null;
}

export interface FeedOptions<E> extends LiveStream<E> {
  /** The stream's address for one connection. */
  streamUrl(resume: ResumePoint): string;
  /**
   * Asked before each connection (the KYC stream's health route,
   * docs/product/backend-client.md#streams-and-commands). A false answer or a throw counts as a
   * failed attempt: backoff, then ask again. Without it the credential is asked at once.
   */
  healthy?(): Promise<boolean>;
  /**
   * What authenticates the next connection: a fresh single-use ticket for EventSource, or the
   * session's token for a fetch stream.
   */
  getCredential(): Promise<string>;
  openStream(url: string, resume: ResumePoint): EventSourceLike;
  /** Where the first connection resumes (a connection taking over from another); none: from now. */
  lastEventId?: string | null;
  onEvent(event: E): void;
  /** The resume point moved (an event or a cursor message): what a connection taking over would resume from. */
  onResumePoint?(id: string): void;
  /** The server refused the credential (a 401, or the stream's `unauthorized` event): the feed has stopped for good. */
  onUnauthorized?(): void;
  onStatus(status: ConnectionStatus): void;
  /**
   * A connection opened after a gap (a reconnect, or a first open after failures): events of the
   * gap before the first id was known cannot be replayed, so the screen should refetch.
   */
  onResumed(): void;
  /**
   * Stream failures are logged and dropped (docs/product/backend-client.md#streams-and-commands),
   * never shown as an error.
   */
  warn(message: string, detail?: unknown): void;
  online: boolean;
  random?: () => number;
}

export interface LiveFeed {
  setOnline(online: boolean): void;
  stop(): void;
}

/**
 * Runs one stream: (health check,) credential, stream, every event name of the stream; on any
 * error the stream is closed (an EventSource's own retry would reuse an expired ticket) and, after
 * a backoff (at least the server's Retry-After), a new credential opens a new one resuming from
 * the last event id. Offline pauses it; online resumes at once; a refused credential stops it.
 * The rules themselves are feedState.ts's; this performs what they ask for.
 */
export function startFeed<E>(options: FeedOptions<E>): LiveFeed {
  const { label } = options;
  let state: FeedState = initialFeedState(options.online, options.lastEventId ?? null);
  let source: EventSourceLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let shownStatus: ConnectionStatus | null = null;

  const closeSource = () => {
    source?.close();
    source = null;
  };
  const clearRetry = () => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  };
  const publishStatus = () => {
    const status = connectionStatus(state);
    if (status === shownStatus) return;
    shownStatus = status;
    options.onStatus(status);
  };

  const dispatch = (action: FeedAction) => {
    const previous = state;
    state = feedReducer(state, action);
    if (state === previous) return;
    publishStatus();
    if (state.lastEventId !== previous.lastEventId && state.lastEventId !== null)
      options.onResumePoint?.(state.lastEventId);
    if (state.phase === "connecting" && state.attempt !== previous.attempt) {
      closeSource();
      clearRetry();
      void connect(state.attempt);
    } else if (state.phase === "waiting" && previous.phase !== "waiting") {
      closeSource();
      clearRetry();
      retryTimer = setTimeout(
        () => {
          retryTimer = null;
          dispatch({ type: "retry" });
        },
        Math.max(state.retryAfterMs, reconnectDelayMs(state.failures, options.random)),
      );
    } else if (state.phase === "offline" || state.phase === "stopped") {
      closeSource();
      clearRetry();
    }
    if (action.type === "opened" && state.phase === "open" && (previous.everOpened || previous.failures > 0))
      options.onResumed();
    if (state.unauthorized && !previous.unauthorized) options.onUnauthorized?.();
  };

  /** Whether this attempt is still the one to connect (not superseded by a stop, an offline spell or a retry). */
  const stillConnecting = (attempt: number) => attempt === state.attempt && state.phase === "connecting";

  const receive = (attempt: number, name: string, message: MessageEvent) => {
    if (attempt !== state.attempt || CONTROL_EVENTS.has(name)) return;
    const id = message.lastEventId || null;
    if (isDuplicate(state, id)) return;
    dispatch({ type: "received", id });
    const event = options.parse(name, typeof message.data === "string" ? message.data : "");
    if (event) options.onEvent(event);
    else options.warn(`${label}: ignored a malformed ${name} event`, message.data);
  };

  /** The service's answer to the health check; false (logged) when it refused or could not be asked. */
  async function serviceHealthy(healthy: () => Promise<boolean>, attempt: number): Promise<boolean> {
    let failure: unknown = new Error(`${label}: the service's health check failed`);
    try {
      if (await healthy()) return true;
    } catch (error) {
      failure = error;
    }
    if (attempt === state.attempt) options.warn(`${label}: the service's health check failed; retrying`, failure);
    return false;
  }

  async function connect(attempt: number) {
    if (options.healthy) {
      if (!(await serviceHealthy(options.healthy, attempt))) {
        dispatch({ type: "failed", attempt, stage: "credential" });
        return;
      }
      if (!stillConnecting(attempt)) return;
    }
    let credential: string;
    try {
      credential = await options.getCredential();
    } catch (error) {
      if (attempt === state.attempt) options.warn(`${label}: could not get a stream credential; retrying`, error);
      dispatch({ type: "failed", attempt, stage: "credential" });
      return;
    }
    if (!stillConnecting(attempt)) return;
    const resume: ResumePoint = { credential, lastEventId: state.lastEventId };
    const url = options.streamUrl(resume);
    let stream: EventSourceLike;
    try {
      stream = options.openStream(url, resume);
    } catch (error) {
      options.warn(`${label}: could not open the stream; retrying`, error);
      dispatch({ type: "failed", attempt, stage: "stream" });
      return;
    }
    source = stream;
    stream.addEventListener("open", () => dispatch({ type: "opened", attempt }));
    stream.addEventListener("error", (event) => {
      if (attempt !== state.attempt) return;
      const refusal = (event as Partial<StreamErrorEvent>).refusal;
      if (refusal?.status === 401) {
        options.warn(`${label}: the server refused the credential; not reconnecting`);
        dispatch({ type: "unauthorized", attempt });
        return;
      }
      options.warn(
        refusal
          ? `${label}: the stream was refused (HTTP ${refusal.status}${refusal.code ? ` ${refusal.code}` : ""}); retrying`
          : `${label}: connection lost; reconnecting`,
      );
      dispatch({
        type: "failed",
        attempt,
        stage: "stream",
        ...(refusal?.retryAfterMs ? { retryAfterMs: refusal.retryAfterMs } : {}),
        ...(refusal?.status === 400 && refusal.code === "invalid_event_id" ? { resumeRefused: true } : {}),
      });
    });
    stream.addEventListener(UNAUTHORIZED_EVENT_NAME, () => {
      if (attempt !== state.attempt) return;
      options.warn(`${label}: the session or key behind the stream no longer holds; not reconnecting`);
      dispatch({ type: "unauthorized", attempt });
    });
    // The server's resume point without an event: where the stream began, and on each heartbeat.
    stream.addEventListener(CURSOR_EVENT_NAME, (event) => {
      if (attempt === state.attempt) dispatch({ type: "moved", id: (event as MessageEvent).lastEventId || null });
    });
    for (const name of options.eventNames) {
      // Under ANY_EVENT every message comes with its own name.
      stream.addEventListener(name, (event) =>
        receive(attempt, name === ANY_EVENT ? event.type : name, event as MessageEvent),
      );
    }
  }

  publishStatus();
  if (state.phase === "connecting") void connect(state.attempt);

  return {
    setOnline: (online) => dispatch({ type: online ? "online" : "offline" }),
    stop: () => dispatch({ type: "stop" }),
  };
}

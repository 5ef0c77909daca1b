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

/** The part of EventSource the feed uses, so tests can hand it a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}

/**
 * The server's `cursor` message (ledger and KYC streams alike): no event, only a new `id:` (the
 * stream's starting point, then one with each heartbeat), so a stream cut before its first event
 * still resumes exactly.
 */
export const CURSOR_EVENT_NAME = "cursor";

/** What tells one stream from another: its name in the logs, its events and how to read them. */
export interface LiveStream<E> {
  /** Starts every log line ("Ledger stream", "KYC stream"). */
  label: string;
  /** Every `event:` name the stream sends; the client listens to each (EventSource needs the names). */
  eventNames: readonly string[];
  /** One SSE message as an event, or null when its data is malformed (logged and dropped). */
  parse(name: string, data: string): E | null;
}

/** An SSE message's `data:` as a JSON object, or null when it is not JSON or not an object (the parsers' common first step). */
export function jsonObjectOf(data: string): Record<string, unknown> | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  return typeof payload === "object" && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
}

/** Where a new connection starts: a fresh ticket, and the id of the last event seen (null on a first connection). */
export interface ResumePoint {
  ticket: string;
  lastEventId: string | null;
}

export interface FeedOptions<E> extends LiveStream<E> {
  /** The stream's address for one connection. */
  streamUrl(resume: ResumePoint): string;
  /**
   * Asked before each connection (the KYC stream: spec 001 §7's connect check). A false answer or a
   * throw counts as a failed attempt: backoff, then ask again. Without it the ticket is asked at once.
   */
  healthy?(): Promise<boolean>;
  /** A fresh single-use ticket (POST /api/v1/auth/stream-ticket); EventSource cannot send the token. */
  getTicket(): Promise<string>;
  openStream(url: string): EventSourceLike;
  onEvent(event: E): void;
  onStatus(status: ConnectionStatus): void;
  /**
   * A connection opened after a gap (a reconnect, or a first open after failures): events of the
   * gap before the first id was known cannot be replayed, so the screen should refetch.
   */
  onResumed(): void;
  /** Stream failures are logged and dropped (spec 000 §8), never shown as an error. */
  warn(message: string, detail?: unknown): void;
  online: boolean;
  random?: () => number;
}

export interface LiveFeed {
  setOnline(online: boolean): void;
  stop(): void;
}

/**
 * Runs one stream: (health check,) ticket, EventSource, every event name of the stream; on any
 * error the EventSource is closed (its own retry would reuse an expired ticket) and, after a
 * backoff, a new ticket opens a new one resuming from the last event id. Offline pauses it; online
 * resumes at once. The rules themselves are feedState.ts's; this performs what they ask for.
 */
export function startFeed<E>(options: FeedOptions<E>): LiveFeed {
  const { label } = options;
  let state: FeedState = initialFeedState(options.online);
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
    if (state.phase === "connecting" && state.attempt !== previous.attempt) {
      closeSource();
      clearRetry();
      void connect(state.attempt);
    } else if (state.phase === "waiting" && previous.phase !== "waiting") {
      closeSource();
      clearRetry();
      retryTimer = setTimeout(() => {
        retryTimer = null;
        dispatch({ type: "retry" });
      }, reconnectDelayMs(state.failures, options.random));
    } else if (state.phase === "offline" || state.phase === "stopped") {
      closeSource();
      clearRetry();
    }
    if (action.type === "opened" && state.phase === "open" && (previous.everOpened || previous.failures > 0)) options.onResumed();
  };

  /** Whether this attempt is still the one to connect (not superseded by a stop, an offline spell or a retry). */
  const stillConnecting = (attempt: number) => attempt === state.attempt && state.phase === "connecting";

  const receive = (attempt: number, name: string, message: MessageEvent) => {
    if (attempt !== state.attempt) return;
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
        dispatch({ type: "failed", attempt, stage: "ticket" });
        return;
      }
      if (!stillConnecting(attempt)) return;
    }
    let ticket: string;
    try {
      ticket = await options.getTicket();
    } catch (error) {
      if (attempt === state.attempt) options.warn(`${label}: could not get a stream ticket; retrying`, error);
      dispatch({ type: "failed", attempt, stage: "ticket" });
      return;
    }
    if (!stillConnecting(attempt)) return;
    const url = options.streamUrl({ ticket, lastEventId: state.lastEventId });
    let stream: EventSourceLike;
    try {
      stream = options.openStream(url);
    } catch (error) {
      options.warn(`${label}: could not open the stream; retrying`, error);
      dispatch({ type: "failed", attempt, stage: "stream" });
      return;
    }
    source = stream;
    stream.addEventListener("open", () => dispatch({ type: "opened", attempt }));
    stream.addEventListener("error", () => {
      if (attempt !== state.attempt) return;
      options.warn(`${label}: connection lost; reconnecting`);
      dispatch({ type: "failed", attempt, stage: "stream" });
    });
    // The server's resume point without an event: where the stream began, and on each heartbeat.
    stream.addEventListener(CURSOR_EVENT_NAME, (event) => {
      if (attempt === state.attempt) dispatch({ type: "moved", id: (event as MessageEvent).lastEventId || null });
    });
    for (const name of options.eventNames) {
      stream.addEventListener(name, (event) => receive(attempt, name, event as MessageEvent));
    }
  }

  publishStatus();
  if (state.phase === "connecting") void connect(state.attempt);

  return {
    setOnline: (online) => dispatch({ type: online ? "online" : "offline" }),
    stop: () => dispatch({ type: "stop" }),
  };
}

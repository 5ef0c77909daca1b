import { CURSOR_EVENT_NAME, LEDGER_EVENT_NAMES, parseLedgerEvent, type LedgerLiveEvent } from "./events";
import {
  connectionStatus,
  feedReducer,
  initialFeedState,
  isDuplicate,
  ledgerStreamUrl,
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

export interface LedgerFeedOptions {
  userId: string;
  /** Prefix of the stream path ("" for same origin). */
  baseUrl: string;
  streamPath: string;
  /** A fresh single-use ticket (POST /api/v1/auth/stream-ticket); EventSource cannot send the token. */
  getTicket(): Promise<string>;
  openStream(url: string): EventSourceLike;
  onEvent(event: LedgerLiveEvent): void;
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

export interface LedgerFeed {
  setOnline(online: boolean): void;
  stop(): void;
}

/**
 * Runs the ledger stream: ticket, EventSource, every event name of the contract; on any error the
 * EventSource is closed (its own retry would reuse an expired ticket) and, after a backoff, a new
 * ticket opens a new one resuming from the last event id. Offline pauses it; online resumes at once.
 */
export function startLedgerFeed(options: LedgerFeedOptions): LedgerFeed {
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

  const receive = (attempt: number, name: string, message: MessageEvent) => {
    if (attempt !== state.attempt) return;
    const id = message.lastEventId || null;
    if (isDuplicate(state, id)) return;
    dispatch({ type: "received", id });
    const event = parseLedgerEvent(name, typeof message.data === "string" ? message.data : "");
    if (event) options.onEvent(event);
    else options.warn(`Ledger stream: ignored a malformed ${name} event`, message.data);
  };

  async function connect(attempt: number) {
    let ticket: string;
    try {
      ticket = await options.getTicket();
    } catch (error) {
      if (attempt === state.attempt) options.warn("Ledger stream: could not get a stream ticket; retrying", error);
      dispatch({ type: "failed", attempt, stage: "ticket" });
      return;
    }
    if (attempt !== state.attempt || state.phase !== "connecting") return;
    const url = ledgerStreamUrl(options.baseUrl, options.streamPath, { userId: options.userId, ticket, lastEventId: state.lastEventId });
    let stream: EventSourceLike;
    try {
      stream = options.openStream(url);
    } catch (error) {
      options.warn("Ledger stream: could not open the stream; retrying", error);
      dispatch({ type: "failed", attempt, stage: "stream" });
      return;
    }
    source = stream;
    stream.addEventListener("open", () => dispatch({ type: "opened", attempt }));
    stream.addEventListener("error", () => {
      if (attempt !== state.attempt) return;
      options.warn("Ledger stream: connection lost; reconnecting");
      dispatch({ type: "failed", attempt, stage: "stream" });
    });
    // The server's resume point without an event: where the stream began, and on each heartbeat.
    stream.addEventListener(CURSOR_EVENT_NAME, (event) => {
      if (attempt === state.attempt) dispatch({ type: "moved", id: (event as MessageEvent).lastEventId || null });
    });
    for (const name of LEDGER_EVENT_NAMES) {
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

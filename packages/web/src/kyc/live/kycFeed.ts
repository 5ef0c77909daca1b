import { CURSOR_EVENT_NAME } from "../../ledger/live/events";
import { connectionStatus, feedReducer, initialFeedState, isDuplicate, ledgerStreamUrl, reconnectDelayMs, type ConnectionStatus, type FeedState } from "../../ledger/live/feedState";
import type { EventSourceLike } from "../../ledger/live/feedClient";
import { KYC_EVENT_NAMES, parseKycEvent, type KycLiveEvent } from "./events";

/**
 * The KYC stream's connection (spec 001 §7: health check, then credentialed SSE). It runs on the
 * ledger feed's state machine (ledger/live/feedState.ts: backoff with jitter, resume from the last
 * event id, offline pause), so both streams reconnect by the same tested rules.
 */

export interface KycFeedOptions {
  userId: string;
  baseUrl: string;
  streamPath: string;
  /** GET /api/grpc/kyc/health with the bearer token: the stream is opened only when it answers. */
  healthy(): Promise<boolean>;
  /** A fresh single-use ticket: EventSource cannot send the bearer token. */
  getTicket(): Promise<string>;
  openStream(url: string): EventSourceLike;
  onEvent(event: KycLiveEvent): void;
  onStatus(status: ConnectionStatus): void;
  /** Opened again after a gap: events of the gap may be missing, so the screen reloads its state. */
  onResumed(): void;
  warn(message: string, detail?: unknown): void;
  online: boolean;
  random?: () => number;
}

export interface KycFeed {
  setOnline(online: boolean): void;
  stop(): void;
}

export function startKycFeed(options: KycFeedOptions): KycFeed {
  let state: FeedState = initialFeedState(options.online);
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let shown: ConnectionStatus | null = null;

  const reset = () => {
    source?.close();
    source = null;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const dispatch = (action: Parameters<typeof feedReducer>[1]) => {
    const previous = state;
    state = feedReducer(state, action);
    if (state === previous) return;
    const status = connectionStatus(state);
    if (status !== shown) options.onStatus((shown = status));
    if (state.phase === "connecting" && state.attempt !== previous.attempt) {
      reset();
      void connect(state.attempt);
    } else if (state.phase === "waiting" && previous.phase !== "waiting") {
      reset();
      timer = setTimeout(() => dispatch({ type: "retry" }), reconnectDelayMs(state.failures, options.random));
    } else if (state.phase === "offline" || state.phase === "stopped") {
      reset();
    }
    if (action.type === "opened" && state.phase === "open" && (previous.everOpened || previous.failures > 0)) options.onResumed();
  };

  async function connect(attempt: number) {
    const current = () => attempt === state.attempt && state.phase === "connecting";
    let url: string;
    try {
      // The service is asked first (spec: connect check); a refusal counts as a failed attempt.
      if (!(await options.healthy())) throw new Error("KYC service health check failed");
      if (!current()) return;
      url = ledgerStreamUrl(options.baseUrl, options.streamPath, { userId: options.userId, ticket: await options.getTicket(), lastEventId: state.lastEventId });
    } catch (error) {
      if (attempt === state.attempt) options.warn("KYC stream: not connected; using REST and retrying", error);
      dispatch({ type: "failed", attempt, stage: "ticket" });
      return;
    }
    if (!current()) return;
    const stream = options.openStream(url);
    source = stream;
    const mine = () => attempt === state.attempt;
    stream.addEventListener("open", () => dispatch({ type: "opened", attempt }));
    stream.addEventListener("error", () => {
      if (mine()) dispatch({ type: "failed", attempt, stage: "stream" });
    });
    stream.addEventListener(CURSOR_EVENT_NAME, (event) => {
      if (mine()) dispatch({ type: "moved", id: (event as MessageEvent).lastEventId || null });
    });
    for (const name of KYC_EVENT_NAMES) {
      stream.addEventListener(name, (raw) => {
        const message = raw as MessageEvent;
        const id = message.lastEventId || null;
        if (!mine() || isDuplicate(state, id)) return;
        dispatch({ type: "received", id });
        const event = parseKycEvent(name, typeof message.data === "string" ? message.data : "");
        if (event) options.onEvent(event);
        else options.warn(`KYC stream: ignored a malformed ${name} event`, message.data);
      });
    }
  }

  if (state.phase === "connecting") void connect(state.attempt);
  options.onStatus((shown = connectionStatus(state)));

  return {
    setOnline: (online) => dispatch({ type: online ? "online" : "offline" }),
    stop: () => dispatch({ type: "stop" }),
  };
}

/**
 * The live feed's connection as a pure state machine, so every reconnect rule is unit-tested
 * without a browser: connect (credential, then the stream), live, wait with backoff after a
 * failure (at least as long as the server's Retry-After), pause while offline, and stop (also for
 * good when the server says the credential no longer holds). feedClient.ts performs the effects
 * each transition asks for; every stream runs on it, so all reconnect by the same tested rules.
 */

export type FeedPhase = "connecting" | "open" | "waiting" | "offline" | "stopped";

/** What the indicator shows. */
export type ConnectionStatus = "connecting" | "live" | "reconnecting" | "offline";

export interface FeedState {
  phase: FeedPhase;
  /** Failures since the last successful open; sets the backoff delay. */
  failures: number;
  /** Whether any connection has opened yet: the first attempt is "Connecting…", later ones "Reconnecting…". */
  everOpened: boolean;
  /** The id of the last event received: the resume point of the next connection. */
  lastEventId: string | null;
  /**
   * Numbers the connection attempts. A ticket reply or EventSource callback of an earlier attempt
   * (one that was superseded by a stop, an offline spell or a retry) carries an old number and
   * changes nothing.
   */
  attempt: number;
  /** The latest event ids, so an event delivered twice (a resume overlap) is shown once. */
  recentIds: readonly string[];
  /** Streams refused in a row before opening (a credential was at hand, the stream said no). */
  refusals: number;
  /** The server's Retry-After of the last failure: the next attempt waits at least this long. */
  retryAfterMs: number;
  /** Stopped because the server refused the credential (signed out, key revoked): never retried. */
  unauthorized: boolean;
}

export type FeedAction =
  | { type: "opened"; attempt: number }
  | { type: "received"; id: string | null }
  /** The server moved the resume point without an event (its `cursor` message: connect point, heartbeat). */
  | { type: "moved"; id: string | null }
  /**
   * stage: whether getting the credential failed, or the stream itself (before or after opening).
   * retryAfterMs: the server asked to wait (429, 503). resumeRefused: the server cannot read the
   * resume point (400 invalid_event_id), so the next connection starts afresh.
   */
  | { type: "failed"; attempt: number; stage: "credential" | "stream"; retryAfterMs?: number; resumeRefused?: boolean }
  /** The server refused the credential (401, or the stream's `unauthorized` event): stop, never retry with it. */
  | { type: "unauthorized"; attempt: number }
  | { type: "retry" }
  | { type: "offline" }
  | { type: "online" }
  | { type: "stop" };

/** How many recent event ids are remembered for duplicate detection. */
export const RECENT_IDS_KEPT = 200;

/**
 * After this many streams in a row refused before opening although a ticket was issued, the resume
 * point itself is suspect (the server answers 400 to a cursor it cannot read): the next connection
 * starts afresh, and the screen refetches instead of waiting for a replay that cannot come.
 */
export const REFUSALS_BEFORE_FRESH_START = 3;

/** `lastEventId`: where a connection taking over from another resumes (null: from now). */
export function initialFeedState(online: boolean, lastEventId: string | null = null): FeedState {
  return {
    phase: online ? "connecting" : "offline",
    failures: 0,
    everOpened: false,
    lastEventId,
    attempt: online ? 1 : 0,
    recentIds: [],
    refusals: 0,
    retryAfterMs: 0,
    unauthorized: false,
  };
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  if (state.phase === "stopped") return state;
  switch (action.type) {
    case "opened":
      if (state.phase !== "connecting" || action.attempt !== state.attempt) return state;
      return { ...state, phase: "open", failures: 0, everOpened: true, refusals: 0 };
    case "received":
      if (action.id === null || action.id === "") return state;
      return {
        ...state,
        lastEventId: action.id,
        recentIds: [...state.recentIds.slice(-(RECENT_IDS_KEPT - 1)), action.id],
      };
    case "moved":
      if (action.id === null || action.id === "" || action.id === state.lastEventId) return state;
      return { ...state, lastEventId: action.id };
    case "failed": {
      if ((state.phase !== "connecting" && state.phase !== "open") || action.attempt !== state.attempt) return state;
      const refused = action.stage === "stream" && state.phase === "connecting";
      const refusals = refused ? state.refusals + 1 : 0;
      const freshStart = action.resumeRefused === true || refusals >= REFUSALS_BEFORE_FRESH_START;
      return {
        ...state,
        phase: "waiting",
        failures: state.failures + 1,
        refusals: freshStart ? 0 : refusals,
        lastEventId: freshStart ? null : state.lastEventId,
        retryAfterMs: Math.max(0, action.retryAfterMs ?? 0),
      };
    }
    case "unauthorized":
      if ((state.phase !== "connecting" && state.phase !== "open") || action.attempt !== state.attempt) return state;
      return { ...state, phase: "stopped", attempt: state.attempt + 1, unauthorized: true };
    case "retry":
      if (state.phase !== "waiting") return state;
      return { ...state, phase: "connecting", attempt: state.attempt + 1 };
    case "offline":
      if (state.phase === "offline") return state;
      return { ...state, phase: "offline", attempt: state.attempt + 1 };
    case "online":
      // Back online: connect at once rather than finish a backoff meant for a broken server.
      if (state.phase !== "offline") return state;
      return { ...state, phase: "connecting", failures: 0, attempt: state.attempt + 1 };
    case "stop":
      return { ...state, phase: "stopped", attempt: state.attempt + 1 };
  }
}

/** Whether an event with this id was already handled (the server resumes exactly, but never twice on screen). */
export function isDuplicate(state: FeedState, id: string | null): boolean {
  return id !== null && id !== "" && state.recentIds.includes(id);
}

export function connectionStatus(state: FeedState): ConnectionStatus {
  switch (state.phase) {
    case "open":
      return "live";
    case "offline":
    case "stopped":
      return "offline";
    case "connecting":
    case "waiting":
      return state.everOpened || state.failures > 0 ? "reconnecting" : "connecting";
  }
}

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** 0.5 s after the first failure, doubling to at most 15 s; a successful open starts over. */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 15_000 };

/**
 * The pause before reconnecting after `failures` failures in a row. Half of it is random ("equal
 * jitter"), so tabs that lost the same server do not all come back in the same instant.
 */
export function reconnectDelayMs(
  failures: number,
  random: () => number = Math.random,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
): number {
  const exponent = Math.max(0, failures - 1);
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(exponent, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(1, Math.max(0, random())));
}

/**
 * A single-feed stream's address (EventSource): the user, a fresh ticket, and where to resume
 * (nothing on a first connection).
 */
export function feedStreamUrl(
  baseUrl: string,
  path: string,
  params: { userId: string; ticket: string; lastEventId: string | null },
): string {
  const query = new URLSearchParams({ userId: params.userId, ticket: params.ticket });
  if (params.lastEventId) query.set("lastEventId", params.lastEventId);
  return `${baseUrl}${path}?${query.toString()}`;
}

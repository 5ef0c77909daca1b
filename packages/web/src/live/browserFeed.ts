import { LIVE_FEED_PATH } from "@fintech/core/events/feed-paths";
import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { startFeed, type FeedOptions, type LiveStream } from "./feedClient";
import { RECENT_IDS_KEPT, reconnectDelayMs } from "./feedState";
import { openFetchStream } from "./fetchStream";
import { createLiveHub, type ConnectionHandlers, type LiveHub, type VisibilityLike } from "./liveHub";
import { ANY_EVENT } from "./streamSource";

/** The server's stream of several feeds (packages/functions/src/routes/live-feed.ts). */
export const LIVE_STREAM_PATH = LIVE_FEED_PATH;

/** The feeds the live stream carries (`ops`: the administrators' feed of the whole platform). */
export type LiveScope = "ledger" | "kyc" | "payment" | "ops";

export interface SubscriptionOptions<E>
  extends Pick<FeedOptions<E>, "healthy" | "onEvent" | "onStatus" | "onResumed" | "warn" | "random"> {
  stream: LiveStream<E>;
  scope: LiveScope;
}

/**
 * One screen's part of the tab's hub: the service's health check first when the screen has one (the
 * stream's health route in docs/product/backend-client.md#streams-and-commands; retried with
 * backoff while it fails), then the scope's events, each parsed by the screen's stream, once even
 * if relayed twice, and the connection's state.
 */
export function startSubscription<E>(hub: LiveHub, options: SubscriptionOptions<E>): () => void {
  const { stream, warn } = options;
  let stopped = false;
  let leave: (() => void) | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  const recentIds: string[] = [];

  const join = () => {
    leave = hub.subscribe({
      scope: options.scope,
      onEvent: (name, data, id) => {
        if (id) {
          if (recentIds.includes(id)) return;
          recentIds.push(id);
          if (recentIds.length > RECENT_IDS_KEPT) recentIds.shift();
        }
        const event = stream.parse(name, data);
        if (event) options.onEvent(event);
        else warn(`${stream.label}: ignored a malformed ${name} event`, data);
      },
      onStatus: options.onStatus,
      onResumed: options.onResumed,
    });
  };

  const check = async (healthy: () => Promise<boolean>) => {
    let failure: unknown = new Error(`${stream.label}: the service's health check failed`);
    try {
      if (await healthy()) {
        if (!stopped) join();
        return;
      }
    } catch (error) {
      failure = error;
    }
    if (stopped) return;
    failures += 1;
    warn(`${stream.label}: the service's health check failed; retrying`, failure);
    options.onStatus("reconnecting");
    retryTimer = setTimeout(() => void check(healthy), reconnectDelayMs(failures, options.random));
  };

  if (options.healthy) {
    options.onStatus("connecting");
    void check(options.healthy);
  } else {
    join();
  }
  return () => {
    stopped = true;
    if (retryTimer !== null) clearTimeout(retryTimer);
    leave?.();
  };
}

const warnInConsole = (message: string, detail?: unknown) =>
  console.warn(message, ...(detail === undefined ? [] : [detail]));

/** The session token the last connection was opened with: a refusal of it signs this browser out. */
let lastToken: string | null = null;

/**
 * The leader's connection: the live stream for these scopes over fetch (bearer token and
 * Last-Event-ID as headers), resumed by the shared feed client's rules, paused while the browser
 * is offline.
 */
function openBrowserConnection(
  scopes: readonly string[],
  lastEventId: string | null,
  handlers: ConnectionHandlers,
): { stop(): void } {
  let position = lastEventId;
  const feed = startFeed<{ name: string; data: string }>({
    label: "Live updates",
    eventNames: [ANY_EVENT],
    parse: (name, data) => ({ name, data }),
    lastEventId,
    streamUrl: () => `${apiBaseUrl}${LIVE_STREAM_PATH}?${new URLSearchParams({ scopes: scopes.join(",") }).toString()}`,
    getCredential: async () => {
      const token = credentialStore.getToken();
      if (!token) throw new Error("Not signed in");
      lastToken = token;
      return token;
    },
    openStream: (url, resume) =>
      openFetchStream(url, {
        Authorization: `Bearer ${resume.credential}`,
        ...(resume.lastEventId ? { "Last-Event-ID": resume.lastEventId } : {}),
      }),
    onEvent: (event) => handlers.onEvent(event.name, event.data, position),
    onResumePoint: (id) => {
      position = id;
      handlers.onResumePoint(id);
    },
    onStatus: handlers.onStatus,
    onResumed: handlers.onResumed,
    onUnauthorized: handlers.onUnauthorized,
    warn: warnInConsole,
    online: navigator.onLine,
  });
  const goOnline = () => feed.setOnline(true);
  const goOffline = () => feed.setOnline(false);
  window.addEventListener("online", goOnline);
  window.addEventListener("offline", goOffline);
  return {
    stop: () => {
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      feed.stop();
    },
  };
}

const documentVisibility: VisibilityLike = {
  hidden: () => document.visibilityState === "hidden",
  subscribe: (listener) => {
    document.addEventListener("visibilitychange", listener);
    return () => document.removeEventListener("visibilitychange", listener);
  },
};

const newTabId = () =>
  typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** This tab's hub per signed-in user. */
const hubs = new Map<string, LiveHub>();

function hubFor(userId: string): LiveHub {
  const existing = hubs.get(userId);
  if (existing) return existing;
  const name = `fintech-live:${userId}`;
  const hub = createLiveHub({
    name,
    tabId: newTabId(),
    locks: typeof navigator !== "undefined" && navigator.locks ? navigator.locks : null,
    channel: typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(name),
    visibility: documentVisibility,
    openConnection: openBrowserConnection,
    // The session was signed out elsewhere (or its token expired): this browser is signed out too,
    // unless it has signed in again since.
    onUnauthorized: () => {
      if (lastToken !== null && credentialStore.getToken() === lastToken) credentialStore.clear();
    },
  });
  hubs.set(userId, hub);
  return hub;
}

/** Stops a hub nobody uses any more; after the current task, so a screen replaced by another in one render keeps it. */
function releaseHub(userId: string, hub: LiveHub) {
  queueMicrotask(() => {
    if (hub.size() > 0 || hubs.get(userId) !== hub) return;
    hubs.delete(userId);
    hub.stop();
  });
}

export interface BrowserFeedOptions<E> extends Pick<FeedOptions<E>, "healthy" | "onEvent" | "onStatus" | "onResumed"> {
  stream: LiveStream<E>;
  /** Which feed of the live stream the screen follows. */
  scope: LiveScope;
  userId: string;
}

/**
 * Follows one feed in this page through the browser's one live connection (liveHub.ts): whichever
 * tab leads holds it, this screen gets its scope's events and the connection's state. Returns the
 * stop, for an effect's cleanup.
 */
export function startBrowserFeed<E>({ userId, ...options }: BrowserFeedOptions<E>): () => void {
  const hub = hubFor(userId);
  const stop = startSubscription(hub, { ...options, warn: warnInConsole });
  return () => {
    stop();
    releaseHub(userId, hub);
  };
}

import type { ConnectionStatus } from "./feedState";

/**
 * One live connection per signed-in browser, whatever the number of tabs and screens. Every tab
 * that shows a live screen runs a hub; the hubs of one user elect a leader with the Web Locks API
 * (the first to ask holds the lock; when its tab closes or stops needing live updates, the next
 * one gets it), and talk over a BroadcastChannel:
 *
 * - each tab announces what it needs: the scopes its screens subscribe to (ledger, kyc, payment)
 *   and whether it is active: visible, or hidden for less than HIDDEN_RELEASE_MS;
 * - the leader holds the one connection, for the union of every open tab's scopes, as long as one
 *   tab with a scope is active; when the set changes it reconnects with the new set from the last
 *   resume id (the server resumes the scopes it had and starts the new ones from now), and when
 *   every such tab has been hidden that long it closes the connection; shown again, it reconnects
 *   from the last id and what was missed arrives;
 * - the leader relays every event, the connection's status (with the scopes it carries) and the
 *   resume id to the other tabs, so a tab that takes over as leader resumes where the last left.
 *
 * A tab's own lock (held while its hub runs) tells the leader when a tab went away without saying
 * so (a crash): the leader waits on each other tab's lock, and gets it when that tab is gone.
 * Without Web Locks or BroadcastChannel each tab is its own leader.
 */

/** How long a hidden tab keeps its need for live updates; the connection closes when no tab has one. */
export const HIDDEN_RELEASE_MS = 60_000;

/** The parts of the Web Locks API the hub uses (navigator.locks; a fake in tests). */
export interface LockManagerLike {
  request(
    name: string,
    options: { signal?: AbortSignal },
    callback: () => Promise<unknown> | unknown,
  ): Promise<unknown>;
}

/** The parts of BroadcastChannel the hub uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface VisibilityLike {
  hidden(): boolean;
  /** Calls `listener` on every visibility change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** What the leader's connection reports to the hub. */
export interface ConnectionHandlers {
  /** One event: its name on the wire (`<scope>.<event>`), its data, and the resume id after it. */
  onEvent(name: string, data: string, id: string | null): void;
  onResumePoint(id: string): void;
  onStatus(status: ConnectionStatus): void;
  /** Opened after a gap that may have lost events: screens should refetch. */
  onResumed(): void;
  /** The server refused the credential: the connection has stopped for good. */
  onUnauthorized(): void;
}

/** Opens the one connection for these scopes, resuming from `lastEventId` (null: from now). */
export type OpenConnection = (
  scopes: readonly string[],
  lastEventId: string | null,
  handlers: ConnectionHandlers,
) => { stop(): void };

export interface HubOptions {
  /** Names the user's locks and channel: one leader per user per browser. */
  name: string;
  tabId: string;
  locks: LockManagerLike | null;
  channel: ChannelLike | null;
  visibility: VisibilityLike;
  openConnection: OpenConnection;
  /** Called once, in the leader's tab, when the server refused the credential. */
  onUnauthorized(): void;
  hiddenReleaseMs?: number;
}

export interface HubSubscriber {
  scope: string;
  /** One event of the subscriber's scope: its name within the scope, its data, its resume id. */
  onEvent(name: string, data: string, id: string | null): void;
  onStatus(status: ConnectionStatus): void;
  onResumed(): void;
}

export interface LiveHub {
  subscribe(subscriber: HubSubscriber): () => void;
  /** How many subscribers this tab has (the hub stops when the last leaves). */
  size(): number;
  stop(): void;
}

interface Need {
  scopes: string[];
  active: boolean;
}

/** What the tabs say to each other. */
type HubMessage =
  | { kind: "hello"; tab: string }
  | { kind: "need"; tab: string; scopes: string[]; active: boolean }
  | { kind: "bye"; tab: string }
  | { kind: "event"; name: string; data: string; id: string | null }
  | { kind: "position"; id: string }
  | { kind: "status"; status: ConnectionStatus; scopes: string[]; lastEventId: string | null }
  | { kind: "resumed" };

const isHubMessage = (value: unknown): value is HubMessage =>
  typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";

const sameScopes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((scope, index) => scope === b[index]);

/** A scope's event name on the wire (`ledger.balanceUpdate`) as [scope, name]. */
function splitEventName(name: string): [string, string] | null {
  const dot = name.indexOf(".");
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : null;
}

export function createLiveHub(options: HubOptions): LiveHub {
  const { tabId, locks, channel, visibility } = options;
  const hiddenReleaseMs = options.hiddenReleaseMs ?? HIDDEN_RELEASE_MS;
  const coordinated = locks !== null && channel !== null;
  const subscribers = new Set<HubSubscriber>();
  /** Every known tab's need, this one's included. */
  const needs = new Map<string, Need>();
  let lastEventId: string | null = null;
  let shown: { status: ConnectionStatus; scopes: string[] } = { status: "connecting", scopes: [] };
  let active = !visibility.hidden();
  let hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let announced = false;

  let leader = false;
  let connection: { scopes: string[]; stop(): void } | null = null;
  const watches = new Map<string, AbortController>();
  const stopping = new AbortController();
  let releaseTabLock: (() => void) | null = null;
  let resign: (() => void) | null = null;

  const post = (message: HubMessage) => {
    if (!stopped) channel?.postMessage(message);
  };

  const ownNeed = (): Need => ({
    scopes: [...new Set([...subscribers].map((subscriber) => subscriber.scope))].sort(),
    active,
  });

  const statusFor = (scope: string): ConnectionStatus =>
    shown.status === "live" && !shown.scopes.includes(scope) ? "connecting" : shown.status;

  const show = (status: ConnectionStatus, scopes: string[]) => {
    shown = { status, scopes };
    for (const subscriber of subscribers) subscriber.onStatus(statusFor(subscriber.scope));
  };

  const deliver = (name: string, data: string, id: string | null) => {
    if (id !== null) lastEventId = id;
    const split = splitEventName(name);
    if (!split) return;
    for (const subscriber of [...subscribers])
      if (subscriber.scope === split[0]) subscriber.onEvent(split[1], data, id);
  };

  const resumed = () => {
    for (const subscriber of [...subscribers]) subscriber.onResumed();
  };

  /* ---------- the leader's side ---------- */

  const publishStatus = (status: ConnectionStatus) => {
    const scopes = connection?.scopes ?? [];
    show(status, scopes);
    post({ kind: "status", status, scopes, lastEventId });
  };

  const closeConnection = () => {
    connection?.stop();
    connection = null;
  };

  /** Holds the connection the tabs' needs call for: the union of their scopes while one of them is active. */
  const reconcile = () => {
    if (!leader || stopped) return;
    const open = [...needs.values()].filter((need) => need.scopes.length > 0);
    const scopes = [...new Set(open.flatMap((need) => need.scopes))].sort();
    const wanted = open.some((need) => need.active);
    if (!wanted) {
      if (connection) closeConnection();
      // Nobody looks: the screens say so when shown again, until the connection is back.
      publishStatus("reconnecting");
      return;
    }
    if (connection && sameScopes(connection.scopes, scopes)) {
      post({ kind: "status", status: shown.status, scopes: shown.scopes, lastEventId });
      return;
    }
    closeConnection();
    const current: { scopes: string[]; stop(): void } = { scopes, stop: () => undefined };
    connection = current;
    const mine = () => connection === current;
    const handle = options.openConnection(scopes, lastEventId, {
      onEvent: (name, data, id) => {
        if (!mine()) return;
        deliver(name, data, id);
        post({ kind: "event", name, data, id });
      },
      onResumePoint: (id) => {
        if (!mine() || id === lastEventId) return;
        lastEventId = id;
        post({ kind: "position", id });
      },
      onStatus: (status) => {
        if (mine()) publishStatus(status);
      },
      onResumed: () => {
        if (!mine()) return;
        resumed();
        post({ kind: "resumed" });
      },
      onUnauthorized: () => {
        if (!mine()) return;
        publishStatus("offline");
        options.onUnauthorized();
      },
    });
    current.stop = handle.stop;
    if (!mine()) handle.stop();
  };

  /** Learns when another tab is gone: its lock comes free. */
  const watch = (tab: string) => {
    if (!locks || tab === tabId || watches.has(tab)) return;
    const controller = new AbortController();
    watches.set(tab, controller);
    locks
      .request(`${options.name}:tab:${tab}`, { signal: controller.signal }, () => {
        watches.delete(tab);
        if (needs.delete(tab)) reconcile();
      })
      .catch(() => undefined);
  };

  const becomeLeader = () => {
    leader = true;
    for (const tab of needs.keys()) watch(tab);
    reconcile();
  };

  /* ---------- every tab ---------- */

  const announce = () => {
    const need = ownNeed();
    needs.set(tabId, need);
    if (!announced) return;
    post({ kind: "need", tab: tabId, ...need });
    reconcile();
  };

  const onMessage = (event: MessageEvent) => {
    const message: unknown = event.data;
    if (stopped || !isHubMessage(message)) return;
    switch (message.kind) {
      case "hello":
        if (announced) post({ kind: "need", tab: tabId, ...ownNeed() });
        if (leader) post({ kind: "status", status: shown.status, scopes: shown.scopes, lastEventId });
        return;
      case "need":
        needs.set(message.tab, { scopes: message.scopes, active: message.active });
        if (leader) {
          watch(message.tab);
          reconcile();
        }
        return;
      case "bye":
        if (needs.delete(message.tab) && leader) reconcile();
        watches.get(message.tab)?.abort();
        watches.delete(message.tab);
        return;
      case "event":
        deliver(message.name, message.data, message.id);
        return;
      case "position":
        lastEventId = message.id;
        return;
      case "status":
        if (message.lastEventId !== null) lastEventId = message.lastEventId;
        if (!leader) show(message.status, message.scopes);
        return;
      case "resumed":
        resumed();
        return;
    }
  };

  const onVisibility = () => {
    if (stopped) return;
    if (hiddenTimer !== null) clearTimeout(hiddenTimer);
    hiddenTimer = null;
    if (visibility.hidden()) {
      hiddenTimer = setTimeout(() => {
        hiddenTimer = null;
        active = false;
        announce();
      }, hiddenReleaseMs);
    } else if (!active) {
      active = true;
      announce();
    }
  };
  const stopVisibility = visibility.subscribe(onVisibility);
  if (!active) {
    // Opened in the background: it has its grace period like a tab just hidden.
    active = true;
    onVisibility();
  }

  /** Joins the other tabs once this tab holds its own lock (so the leader never takes it for gone). */
  const join = () => {
    announced = true;
    channel?.addEventListener("message", onMessage);
    post({ kind: "hello", tab: tabId });
    announce();
    if (!coordinated) {
      becomeLeader();
      return;
    }
    locks!
      .request(`${options.name}:leader`, { signal: stopping.signal }, () => {
        if (stopped) return;
        becomeLeader();
        return new Promise<void>((resolve) => (resign = resolve));
      })
      .catch(() => undefined);
  };

  needs.set(tabId, ownNeed());
  if (coordinated) {
    locks!
      .request(`${options.name}:tab:${tabId}`, { signal: stopping.signal }, () => {
        if (stopped) return;
        join();
        return new Promise<void>((resolve) => (releaseTabLock = resolve));
      })
      .catch(() => undefined);
  } else {
    join();
  }

  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      subscriber.onStatus(statusFor(subscriber.scope));
      announce();
      return () => {
        if (!subscribers.delete(subscriber)) return;
        announce();
      };
    },
    size: () => subscribers.size,
    stop() {
      if (stopped) return;
      post({ kind: "bye", tab: tabId });
      stopped = true;
      leader = false;
      closeConnection();
      if (hiddenTimer !== null) clearTimeout(hiddenTimer);
      stopVisibility();
      for (const controller of watches.values()) controller.abort();
      watches.clear();
      stopping.abort();
      resign?.();
      releaseTabLock?.();
      channel?.close();
    },
  };
}

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus } from "./feedState";
import {
  createLiveHub,
  HIDDEN_RELEASE_MS,
  type ChannelLike,
  type ConnectionHandlers,
  type LiveHub,
  type LockManagerLike,
  type VisibilityLike,
} from "./liveHub";

/**
 * The tabs of one browser sharing one connection, with the browser's parts faked: exclusive
 * locks that a closing tab gives up (also when it crashes), a broadcast channel that delivers to
 * every other tab asynchronously, each tab's visibility, and the leader's connection.
 */

class FakeLocks {
  private readonly held = new Map<string, string>();
  private readonly queues = new Map<string, { tab: string; grant: () => void; drop: () => void }[]>();
  private readonly releasers = new Map<string, () => void>();

  forTab(tab: string): LockManagerLike {
    return {
      request: (name, options, callback) =>
        new Promise((resolve, reject) => {
          const aborted = () => reject(new DOMException("The request was aborted", "AbortError"));
          if (options.signal?.aborted) return aborted();
          const grant = () => {
            this.held.set(name, tab);
            let released = false;
            const release = (value?: unknown) => {
              if (released) return;
              released = true;
              this.releasers.delete(name);
              this.held.delete(name);
              resolve(value);
              this.queues.get(name)?.shift()?.grant();
            };
            this.releasers.set(name, () => release());
            Promise.resolve()
              .then(callback)
              .then(release, (error: unknown) => {
                release();
                reject(error);
              });
          };
          const queue = this.queues.get(name) ?? [];
          this.queues.set(name, queue);
          if (!this.held.has(name) && queue.length === 0) return grant();
          const entry = { tab, grant, drop: aborted };
          queue.push(entry);
          options.signal?.addEventListener("abort", () => {
            const index = queue.indexOf(entry);
            if (index >= 0) {
              queue.splice(index, 1);
              aborted();
            }
          });
        }),
    };
  }

  /** What the browser does for a tab that is gone: its locks are freed and its waiting requests dropped. */
  crash(tab: string) {
    for (const queue of this.queues.values()) {
      for (const entry of queue.filter((candidate) => candidate.tab === tab)) queue.splice(queue.indexOf(entry), 1);
    }
    for (const [name, holder] of [...this.held]) if (holder === tab) this.releasers.get(name)?.();
  }
}

class FakeChannel implements ChannelLike {
  closed = false;
  private readonly listeners: ((event: MessageEvent) => void)[] = [];
  constructor(private readonly others: Set<FakeChannel>) {
    others.add(this);
  }
  postMessage(message: unknown) {
    if (this.closed) return;
    for (const other of this.others) {
      if (other === this) continue;
      const copy = structuredClone(message);
      queueMicrotask(() => {
        if (!other.closed) for (const listener of other.listeners) listener({ data: copy } as MessageEvent);
      });
    }
  }
  addEventListener(_type: "message", listener: (event: MessageEvent) => void) {
    this.listeners.push(listener);
  }
  close() {
    this.closed = true;
    this.others.delete(this);
  }
}

class FakeVisibility implements VisibilityLike {
  private listeners = new Set<() => void>();
  constructor(public isHidden = false) {}
  hidden = () => this.isHidden;
  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(hidden: boolean) {
    this.isHidden = hidden;
    for (const listener of this.listeners) listener();
  }
}

interface Connection {
  tab: string;
  scopes: readonly string[];
  lastEventId: string | null;
  handlers: ConnectionHandlers;
  stopped: boolean;
}

interface Screen {
  events: string[];
  statuses: ConnectionStatus[];
  resumed: number;
  leave: () => void;
}

class FakeBrowser {
  readonly locks = new FakeLocks();
  readonly channels = new Set<FakeChannel>();
  readonly connections: Connection[] = [];
  readonly refusals: string[] = [];
  private count = 0;

  openTab(options: { hidden?: boolean; coordinated?: boolean } = {}) {
    const tab = `tab-${++this.count}`;
    const visibility = new FakeVisibility(options.hidden ?? false);
    const coordinated = options.coordinated ?? true;
    const channel = coordinated ? new FakeChannel(this.channels) : null;
    const hub: LiveHub = createLiveHub({
      name: "fintech-live:u1",
      tabId: tab,
      locks: coordinated ? this.locks.forTab(tab) : null,
      channel,
      visibility,
      openConnection: (scopes, lastEventId, handlers) => {
        const connection: Connection = { tab, scopes, lastEventId, handlers, stopped: false };
        this.connections.push(connection);
        return { stop: () => (connection.stopped = true) };
      },
      onUnauthorized: () => this.refusals.push(tab),
    });
    const show = (scope: string): Screen => {
      const screen: Screen = { events: [], statuses: [], resumed: 0, leave: () => undefined };
      screen.leave = hub.subscribe({
        scope,
        onEvent: (name, data, id) => screen.events.push(`${name} ${data} ${id}`),
        onStatus: (status) => screen.statuses.push(status),
        onResumed: () => (screen.resumed += 1),
      });
      return screen;
    };
    const crash = () => {
      channel?.close();
      this.locks.crash(tab);
      for (const connection of this.connections) if (connection.tab === tab) connection.stopped = true;
    };
    return { tab, hub, visibility, show, crash };
  }

  open(): Connection[] {
    return this.connections.filter((connection) => !connection.stopped);
  }

  /** The one open connection. */
  only(): Connection {
    const open = this.open();
    expect(open).toHaveLength(1);
    return open[0]!;
  }
}

/** Lets every queued message, lock grant and promise run. */
async function settle() {
  for (let round = 0; round < 30; round++) await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("one connection per browser", () => {
  it("three tabs hold one connection for the union of their scopes; each screen gets its scope's events and the connection's state", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    const ledgerA = a.show("ledger");
    await settle();
    const b = browser.openTab();
    const kycB = b.show("kyc");
    const c = browser.openTab();
    const ledgerC = c.show("ledger");
    const paymentC = c.show("payment");
    await settle();

    const connection = browser.only();
    expect(connection.tab).toBe(a.tab);
    expect(connection.scopes).toEqual(["kyc", "ledger", "payment"]);
    connection.handlers.onStatus("live");
    connection.handlers.onEvent("ledger.balanceUpdate", '{"n":1}', "id-1");
    connection.handlers.onEvent("kyc.documentVerified", '{"n":2}', "id-2");
    await settle();
    expect(ledgerA.events).toEqual(['balanceUpdate {"n":1} id-1']);
    expect(ledgerC.events).toEqual(['balanceUpdate {"n":1} id-1']);
    expect(kycB.events).toEqual(['documentVerified {"n":2} id-2']);
    expect(paymentC.events).toEqual([]);
    for (const screen of [ledgerA, kycB, ledgerC, paymentC]) expect(screen.statuses.at(-1)).toBe("live");

    connection.handlers.onResumed();
    await settle();
    expect([ledgerA, kycB, ledgerC, paymentC].map((screen) => screen.resumed)).toEqual([1, 1, 1, 1]);
  });

  it("reconnects from the last id when the scopes change, and says 'connecting' to a screen until its scope is carried", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    a.show("ledger");
    await settle();
    const first = browser.only();
    first.handlers.onStatus("live");
    first.handlers.onEvent("ledger.balanceUpdate", "{}", "id-7");
    first.handlers.onResumePoint("id-8");

    const b = browser.openTab();
    const payments = b.show("payment");
    expect(payments.statuses).toEqual(["connecting"]);
    await settle();
    expect(first.stopped).toBe(true);
    const second = browser.only();
    expect(second).toMatchObject({ tab: a.tab, scopes: ["ledger", "payment"], lastEventId: "id-8" });
    second.handlers.onStatus("live");
    await settle();
    expect(payments.statuses.at(-1)).toBe("live");

    // The payments screen closes: the scope goes, the ledger resumes where it was.
    second.handlers.onResumePoint("id-9");
    payments.leave();
    await settle();
    expect(browser.only()).toMatchObject({ scopes: ["ledger"], lastEventId: "id-9" });
  });

  it("hands the connection to another tab when the leader's tab closes, resuming from the last id", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    a.show("ledger");
    await settle();
    const b = browser.openTab();
    const ledgerB = b.show("ledger");
    await settle();
    const first = browser.only();
    first.handlers.onStatus("live");
    first.handlers.onEvent("ledger.balanceUpdate", "{}", "id-3");
    await settle();

    a.hub.stop();
    await settle();
    expect(first.stopped).toBe(true);
    const taken = browser.only();
    expect(taken).toMatchObject({ tab: b.tab, scopes: ["ledger"], lastEventId: "id-3" });
    taken.handlers.onEvent("ledger.balanceUpdate", "{}", "id-4");
    expect(ledgerB.events).toEqual(["balanceUpdate {} id-3", "balanceUpdate {} id-4"]);
  });

  it("forgets a tab that went away without a word, and a leader that did", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    a.show("ledger");
    await settle();
    const b = browser.openTab();
    b.show("kyc");
    const c = browser.openTab();
    c.show("payment");
    await settle();
    expect(browser.only().scopes).toEqual(["kyc", "ledger", "payment"]);

    c.crash();
    await settle();
    expect(browser.only()).toMatchObject({ tab: a.tab, scopes: ["kyc", "ledger"] });

    browser.only().handlers.onResumePoint("id-5");
    await settle();
    a.crash();
    await settle();
    expect(browser.only()).toMatchObject({ tab: b.tab, scopes: ["kyc"], lastEventId: "id-5" });
  });
});

describe("hidden tabs", () => {
  it("close the connection once every tab has been hidden for a minute, and resume from the last id when one is shown", async () => {
    const browser = new FakeBrowser();
    const tabs = [browser.openTab(), browser.openTab(), browser.openTab()];
    const screens = [tabs[0]!.show("ledger"), tabs[1]!.show("kyc"), tabs[2]!.show("ledger")];
    await settle();
    browser.only().handlers.onStatus("live");
    browser.only().handlers.onEvent("ledger.balanceUpdate", "{}", "id-1");
    await settle();

    for (const tab of tabs) tab.visibility.set(true);
    await vi.advanceTimersByTimeAsync(HIDDEN_RELEASE_MS - 1);
    await settle();
    expect(browser.open()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(browser.open()).toEqual([]);
    expect(screens.map((screen) => screen.statuses.at(-1))).toEqual(["reconnecting", "reconnecting", "reconnecting"]);

    tabs[2]!.visibility.set(false);
    await settle();
    const resumed = browser.only();
    expect(resumed).toMatchObject({ scopes: ["kyc", "ledger"], lastEventId: "id-1" });
    resumed.handlers.onEvent("ledger.balanceUpdate", "{}", "id-2");
    await settle();
    expect(screens[2]!.events).toEqual(["balanceUpdate {} id-1", "balanceUpdate {} id-2"]);
  });

  it("keep their scopes while another tab is visible, and a tab shown within the minute keeps the connection", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    a.show("ledger");
    await settle();
    const b = browser.openTab();
    b.show("kyc");
    await settle();
    const connection = browser.only();

    b.visibility.set(true);
    await vi.advanceTimersByTimeAsync(HIDDEN_RELEASE_MS * 2);
    await settle();
    expect(browser.only()).toBe(connection);

    a.visibility.set(true);
    await vi.advanceTimersByTimeAsync(HIDDEN_RELEASE_MS / 2);
    a.visibility.set(false);
    await vi.advanceTimersByTimeAsync(HIDDEN_RELEASE_MS);
    await settle();
    expect(browser.only()).toBe(connection);
  });

  it("a tab opened in the background has the same minute", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab({ hidden: true });
    a.show("ledger");
    await settle();
    expect(browser.open()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(HIDDEN_RELEASE_MS);
    await settle();
    expect(browser.open()).toEqual([]);
  });
});

describe("the end of a credential and browsers without the APIs", () => {
  it("reports a refused credential once, from the leader, and every screen shows offline", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab();
    const ledger = a.show("ledger");
    await settle();
    const b = browser.openTab();
    const kyc = b.show("kyc");
    await settle();
    browser.only().handlers.onUnauthorized();
    await settle();
    expect(browser.refusals).toEqual([a.tab]);
    expect([ledger.statuses.at(-1), kyc.statuses.at(-1)]).toEqual(["offline", "offline"]);
  });

  it("without Web Locks or BroadcastChannel, each tab holds its own connection", async () => {
    const browser = new FakeBrowser();
    const a = browser.openTab({ coordinated: false });
    const ledger = a.show("ledger");
    browser.openTab({ coordinated: false }).show("kyc");
    await settle();
    expect(browser.open().map((connection) => connection.scopes)).toEqual([["ledger"], ["kyc"]]);
    browser.open()[0]!.handlers.onEvent("ledger.balanceUpdate", "{}", "id-1");
    expect(ledger.events).toEqual(["balanceUpdate {} id-1"]);
    ledger.leave();
    a.hub.stop();
    expect(browser.open().map((connection) => connection.scopes)).toEqual([["kyc"]]);
  });
});

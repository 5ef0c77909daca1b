import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus } from "./feedState";
import { startSubscription } from "./browserFeed";
import { createLiveHub, type ConnectionHandlers } from "./liveHub";

/** A screen's subscription on a hub of its own (no other tab), with the connection faked. */
function setup(healthy?: () => Promise<boolean>) {
  const connections: { scopes: readonly string[]; handlers: ConnectionHandlers; stopped: boolean }[] = [];
  const hub = createLiveHub({
    name: "fintech-live:u1",
    tabId: "tab-1",
    locks: null,
    channel: null,
    visibility: { hidden: () => false, subscribe: () => () => undefined },
    openConnection: (scopes, _lastEventId, handlers) => {
      const connection = { scopes, handlers, stopped: false };
      connections.push(connection);
      return { stop: () => (connection.stopped = true) };
    },
    onUnauthorized: () => undefined,
  });
  const events: string[] = [];
  const statuses: ConnectionStatus[] = [];
  const warnings: string[] = [];
  const stop = startSubscription(hub, {
    stream: {
      label: "Names stream",
      eventNames: ["named"],
      parse: (name, data) => (data === "broken" ? null : `${name}:${data}`),
    },
    scope: "ledger",
    healthy,
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    onResumed: () => undefined,
    warn: (message) => warnings.push(message),
    random: () => 1,
  });
  return { hub, connections, events, statuses, warnings, stop };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a screen's subscription", () => {
  it("gets its scope's events parsed by its stream, each id once, and logs a malformed one", async () => {
    const { connections, events, statuses, warnings, stop, hub } = setup();
    expect(connections.map((connection) => connection.scopes)).toEqual([["ledger"]]);
    const { handlers } = connections[0]!;
    handlers.onStatus("live");
    handlers.onEvent("ledger.named", "a", "id-1");
    handlers.onEvent("ledger.named", "a", "id-1");
    handlers.onEvent("kyc.named", "b", "id-2");
    handlers.onEvent("ledger.named", "broken", "id-3");
    expect(events).toEqual(["named:a"]);
    expect(warnings).toEqual(["Names stream: ignored a malformed named event"]);
    expect(statuses.at(-1)).toBe("live");
    stop();
    expect(hub.size()).toBe(0);
    expect(connections[0]!.stopped).toBe(true);
  });

  it("asks the service's health check before joining, and retries it with backoff while it fails", async () => {
    let healthy = false;
    const { connections, statuses, warnings, stop } = setup(async () => healthy);
    await vi.advanceTimersByTimeAsync(0);
    expect(connections).toEqual([]);
    expect(statuses).toEqual(["connecting", "reconnecting"]);
    expect(warnings).toEqual(["Names stream: the service's health check failed; retrying"]);
    healthy = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(connections).toHaveLength(1);
    stop();
  });

  it("a stop while the health check fails asks nothing more", async () => {
    const check = vi.fn(async () => false);
    const { connections, stop } = setup(check);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(connections).toEqual([]);
  });
});

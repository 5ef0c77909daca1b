import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus } from "./feedState";
import { startBrowserFeed } from "./browserFeed";
import { FakeStream } from "./testing";

vi.mock("../api", () => ({ api: { ledger: { streamTicket: async () => ({ ticket: "ticket-1" }) } } }));

/** The page's side of a feed: the app's ticket, a real-named EventSource, and the window's online/offline events. */
const opened: FakeStream[] = [];
beforeEach(() => {
  opened.length = 0;
  vi.stubGlobal("window", new EventTarget());
  vi.stubGlobal("navigator", { onLine: true });
  vi.stubGlobal(
    "EventSource",
    class extends FakeStream {
      constructor(url: string) {
        super(url);
        opened.push(this);
      }
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const NAMES = { label: "Names stream", eventNames: ["named"], parse: (_name: string, data: string) => data };

describe("a feed in the page", () => {
  it("connects with the app's ticket, pauses offline, reconnects online, and its stop lets go of the window", async () => {
    const statuses: ConnectionStatus[] = [];
    const events: string[] = [];
    const stop = startBrowserFeed({ stream: NAMES, path: "/api/grpc/names/stream", userId: "u1", onEvent: (event) => events.push(event), onStatus: (status) => statuses.push(status), onResumed: () => {} });
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]!.url.endsWith("/api/grpc/names/stream?userId=u1&ticket=ticket-1")).toBe(true);
    opened[0]!.open();
    opened[0]!.send("named", "c1", "hello");
    expect(events).toEqual(["hello"]);

    window.dispatchEvent(new Event("offline"));
    expect(opened[0]!.closed).toBe(true);
    expect(statuses.at(-1)).toBe("offline");
    window.dispatchEvent(new Event("online"));
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    expect(opened[1]!.query.lastEventId).toBe("c1");

    const removed = vi.spyOn(window, "removeEventListener");
    stop();
    expect(opened[1]!.closed).toBe(true);
    expect(removed.mock.calls.map(([type]) => type).sort()).toEqual(["offline", "online"]);
  });
});

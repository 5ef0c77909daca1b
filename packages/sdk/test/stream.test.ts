import { describe, expect, it, vi } from "vitest";
import { backoffPolicy } from "../src/backoff";
import { FintechError } from "../src/errors";
import { createStreamReader, streamUrl, type StreamEvent } from "../src/stream";
import { createTransport, type FetchFunction } from "../src/transport";

/** The stream reader against scripted event streams (the local-stack tests cover the real feed). */
const encoder = new TextEncoder();

/** Whether each body made by sseBody was cancelled by its reader, in the order they were made. */
const bodiesCancelled: boolean[] = [];

/** A body that sends `frames` and then either ends or stays open (silent) until cancelled. */
function sseBody(frames: string[], end: "close" | "stay-open") {
  const index = bodiesCancelled.push(false) - 1;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(encoder.encode(frame));
      if (end === "close") controller.close();
    },
    cancel() {
      bodiesCancelled[index] = true;
    },
  });
}

const sse = (frames: string[], end: "close" | "stay-open" = "close") =>
  new Response(sseBody(frames, end), { status: 200, headers: { "Content-Type": "text/event-stream" } });

function reader(script: (request: Request, connection: number) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const waits: number[] = [];
  const fetch: FetchFunction = async (request) => {
    requests.push(request);
    return script(request, requests.length);
  };
  const backoff = backoffPolicy({ random: () => 0, sleep: async (ms) => void waits.push(ms) });
  const send = createTransport({ fetch, credential: "fpk_test", timeoutMs: 30_000, retries: 1, backoff });
  return { stream: createStreamReader({ baseUrl: "http://api.test/", send, backoff }), requests, waits };
}

async function take(iterable: AsyncIterable<StreamEvent>, count: number): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of iterable) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

describe("stream reader", () => {
  it("yields id, name and parsed data; skips cursor events; sends the bearer credential and no Idempotency-Key", async () => {
    const { stream, requests } = reader(() =>
      sse(
        [
          "retry: 2000\nid: c0\nevent: cursor\ndata: {}\n\n",
          'id: e1\nevent: balanceUpdate\ndata: {"balance":"10.00"}\n\n',
          "id: e2\ndata: plain text\n\n",
        ],
        "stay-open",
      ),
    );
    const events = await take(
      stream("/api/grpc/ledger/stream", {
        query: { userId: "u1", accountIds: ["a", "b"], includeTransactions: false, statusFilter: undefined },
      }),
      2,
    );
    expect(events).toEqual([
      { id: "e1", event: "balanceUpdate", data: { balance: "10.00" } },
      { id: "e2", event: "message", data: "plain text" },
    ]);
    expect(requests[0]!.url).toBe(
      "http://api.test/api/grpc/ledger/stream?userId=u1&accountIds=a%2Cb&includeTransactions=false",
    );
    expect(requests[0]!.headers.get("Authorization")).toBe("Bearer fpk_test");
    expect(requests[0]!.headers.get("Accept")).toBe("text/event-stream");
    expect(requests[0]!.headers.has("Idempotency-Key")).toBe(false);
    expect(requests[0]!.headers.has("Last-Event-ID")).toBe(false);
  });

  it("reconnects after the server ends, waiting its retry: and resuming after the last id (a cursor's too)", async () => {
    const { stream, requests, waits } = reader((_, connection) =>
      connection === 1
        ? sse(["retry: 1500\n\n", "id: e1\nevent: a\ndata: 1\n\n", "id: c1\nevent: cursor\ndata: {}\n\n"])
        : sse(["id: e2\nevent: a\ndata: 2\n\n"], "stay-open"),
    );
    const events = await take(stream("/s", { lastEventId: "start" }), 2);
    expect(events.map((event) => event.data)).toEqual([1, 2]);
    expect(requests.map((request) => request.headers.get("Last-Event-ID"))).toEqual(["start", "c1"]);
    expect(waits).toEqual([1_500]);
  });

  it("reconnects when the stream goes quiet for longer than idleTimeoutMs", async () => {
    const firstBody = bodiesCancelled.length;
    const { stream, requests } = reader((_, connection) =>
      connection === 1
        ? sse(["id: e1\nevent: a\ndata: 1\n\n"], "stay-open")
        : sse(["id: e2\nevent: a\ndata: 2\n\n"], "stay-open"),
    );
    const events = await take(stream("/s", { idleTimeoutMs: 1 }), 2);
    expect(events.map((event) => event.id)).toEqual(["e1", "e2"]);
    expect(requests[1]!.headers.get("Last-Event-ID")).toBe("e1");
    // The quiet connection was hung up. Asked of its body, not of the signal of the Request the
    // fetch got: the transport makes that signal with AbortSignal.any, which Node 20 follows
    // only weakly (a collected follower never aborts).
    await vi.waitFor(() => expect(bodiesCancelled[firstBody]).toBe(true));
  });

  it("throws FintechError for a refusal, and for a reply that is not an event stream", async () => {
    const refused = reader(() => Response.json({ message: "Invalid API key", code: "unauthorized" }, { status: 401 }));
    const error = await take(refused.stream("/s"), 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FintechError);
    expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 401, message: "Invalid API key" });
    expect(refused.requests).toHaveLength(1);

    const notStream = reader(() => Response.json({ data: [] }));
    await expect(take(notStream.stream("/s"), 1)).rejects.toMatchObject({ code: "HTTP_ERROR", status: 200 });
  });

  it("ends quietly when the caller aborts", async () => {
    const controller = new AbortController();
    const { stream } = reader(() => sse(["id: e1\nevent: a\ndata: 1\n\n"]));
    const events: StreamEvent[] = [];
    for await (const event of stream("/s", { signal: controller.signal })) {
      events.push(event);
      controller.abort();
    }
    expect(events).toHaveLength(1);
  });

  it("builds URLs from the base URL, path and query", () => {
    expect(streamUrl("http://api.test//", "/api/x", { a: 1, b: null, c: ["x", "y"], d: true })).toBe(
      "http://api.test/api/x?a=1&c=x%2Cy&d=true",
    );
  });
});

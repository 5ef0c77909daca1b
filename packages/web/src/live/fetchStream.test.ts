import { describe, expect, it, vi } from "vitest";
import { openFetchStream } from "./fetchStream";
import { ANY_EVENT, type StreamErrorEvent, type StreamMessageEvent } from "./streamSource";

/** The fetch stream against made-up replies: what it dispatches, and what a refusal says. */

function streamReply(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

function record(stream: ReturnType<typeof openFetchStream>, names: string[]) {
  const seen: string[] = [];
  for (const name of names) stream.addEventListener(name, (event) => seen.push(`${name} ${JSON.stringify(event)}`));
  return seen;
}

describe("a stream read with fetch", () => {
  it("sends the headers, opens, dispatches each message by name and to every-event listeners with the last id, and ends with an error", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
      streamReply([
        "retry: 2000\nid: c1\nevent: cursor\ndata: {}\n\n",
        'id: c2\nevent: ledger.balanceUpdate\ndata: {"a":1}\n\n: heartbeat\nevent: unauthorized\ndata: {"code":"invalid_token"}\n\n',
      ]),
    );
    const stream = openFetchStream(
      "/api/grpc/live/stream?scopes=ledger",
      { Authorization: "Bearer t", "Last-Event-ID": "c0" },
      fetch,
    );
    const seen = record(stream, ["open", "cursor", ANY_EVENT, "error"]);
    await vi.waitFor(() => expect(seen.at(-1)).toMatch(/^error/));
    const init = fetch.mock.calls[0]![1];
    expect(init.headers).toEqual({ Accept: "text/event-stream", Authorization: "Bearer t", "Last-Event-ID": "c0" });
    const message = (type: string, data: string, lastEventId: string): StreamMessageEvent => ({
      type,
      data,
      lastEventId,
    });
    expect(seen).toEqual([
      `open ${JSON.stringify({ type: "open" })}`,
      `cursor ${JSON.stringify(message("cursor", "{}", "c1"))}`,
      `* ${JSON.stringify(message("cursor", "{}", "c1"))}`,
      `* ${JSON.stringify(message("ledger.balanceUpdate", '{"a":1}', "c2"))}`,
      `* ${JSON.stringify(message("unauthorized", '{"code":"invalid_token"}', "c2"))}`,
      `error ${JSON.stringify({ type: "error" })}`,
    ]);
  });

  it("reports a refusal's status, code and Retry-After, and reads no stream", async () => {
    const reply = new Response(JSON.stringify({ message: "Too many open streams", code: "too_many_streams" }), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": "42" },
    });
    const stream = openFetchStream("/s", {}, async () => reply);
    const seen: StreamErrorEvent[] = [];
    stream.addEventListener("open", () => seen.push({ type: "error" }));
    stream.addEventListener("error", (event) => seen.push(event as unknown as StreamErrorEvent));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({
      type: "error",
      refusal: { status: 429, code: "too_many_streams", retryAfterMs: 42_000 },
    });
  });

  it("dispatches nothing once closed", async () => {
    let resolve: (response: Response) => void = () => undefined;
    const stream = openFetchStream("/s", {}, () => new Promise<Response>((done) => (resolve = done)));
    const seen = record(stream, ["open", "error", ANY_EVENT]);
    stream.close();
    resolve(streamReply(["id: c1\nevent: x\ndata: 1\n\n"]));
    await new Promise((done) => setTimeout(done, 0));
    expect(seen).toEqual([]);
  });
});

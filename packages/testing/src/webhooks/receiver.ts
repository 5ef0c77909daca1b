import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every request and
 * answers with the status codes it is given, in turn (the last one repeats). Tests wait for
 * requests with `waitFor` (a condition, never a fixed sleep).
 */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status code this request was answered with. */
  status: number;
}

export interface TestReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Sets the answers to come (one status code per request; the last one repeats). */
  answer(...statuses: number[]): void;
  /** Holds every answer this long (a slow receiver: attempts are in flight for a while). */
  answerAfter(ms: number): void;
  /** Resolves once `predicate` holds for what was received; rejects after `timeoutMs`. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(...statuses: number[]): Promise<TestReceiver> {
  let answers = statuses.length > 0 ? statuses : [200];
  let holdMs = 0;
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const status = answers.length > 1 ? answers.shift()! : answers[0]!;
      const reply = () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), status });
        response.writeHead(status, { "content-type": "text/plain" });
        response.end(status < 300 ? "ok" : `answered ${status}`);
        for (const waiter of waiters) waiter();
      };
      if (holdMs > 0) setTimeout(reply, holdMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(...next) {
      answers = next.length > 0 ? next : [200];
    },
    answerAfter(ms) {
      holdMs = ms;
    },
    waitFor(predicate, timeoutMs = 20_000) {
      if (predicate(received)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met after ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

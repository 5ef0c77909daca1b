import type { FetchLike, TokenSource } from "./client";

/** A recorded request of the fake fetch. */
export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A fetch that answers from `reply` and records every call; for the client's unit tests. */
export function fakeFetch(reply: (call: RecordedCall) => Response | Promise<Response>) {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call: RecordedCall = {
      url,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    return reply(call);
  };
  return { fetch, calls };
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

export function fakeTokens(token: string | null) {
  const state = { token, cleared: 0 };
  const source: TokenSource = {
    getToken: () => state.token,
    clear: () => {
      state.token = null;
      state.cleared += 1;
    },
  };
  return { source, state };
}

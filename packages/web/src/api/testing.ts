import type { FetchFunction, TokenSource } from "./client";

/** A recorded request of the fake fetch. */
export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A fetch that answers from `reply` and records every call (its JSON body parsed); for the client's unit tests. */
export function fakeFetch(reply: (call: RecordedCall) => Response | Promise<Response>) {
  const calls: RecordedCall[] = [];
  const fetch: FetchFunction = async (request) => {
    const text = await request.text();
    const call: RecordedCall = {
      url: request.url,
      method: request.method,
      headers: new Headers(request.headers),
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
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

import { describe, expect, expectTypeOf, it } from "vitest";
import { createFintechClient, FintechError, type FetchFunction } from "../src";

/** createFintechClient over a scripted fetch: what openapi-fetch sends through the SDK's transport. */
function scripted(reply: (request: Request) => Response) {
  const requests: Request[] = [];
  const fetch: FetchFunction = async (request) => {
    requests.push(request);
    return reply(request);
  };
  return { fetch, requests };
}

describe("createFintechClient", () => {
  it("returns the reply as data, with the session token as bearer", async () => {
    const { fetch, requests } = scripted(() =>
      Response.json({ data: [], pagination: { limit: 5, offset: 0, next_cursor: null, has_more: false } }),
    );
    const fintech = createFintechClient({ baseUrl: "http://api.test/", token: "session-token", fetch });
    const { data } = await fintech.api.GET("/api/v1/ledger/transactions/history", { params: { query: { limit: 5 } } });
    expect(data.pagination.has_more).toBe(false);
    // Typed from the generated paths: the reply, not a union with an error branch.
    expectTypeOf(data.pagination.next_cursor).toEqualTypeOf<string | null>();
    expectTypeOf<(typeof data)["data"][number]["status"]>().toEqualTypeOf<"draft" | "posted" | "voided">();
    expect(requests[0]!.url).toBe("http://api.test/api/v1/ledger/transactions/history?limit=5");
    expect(requests[0]!.headers.get("Authorization")).toBe("Bearer session-token");
  });

  it("sends query lists comma-separated, as the document declares them", async () => {
    const { fetch, requests } = scripted(
      () => new Response("", { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    );
    const fintech = createFintechClient({ baseUrl: "http://api.test", apiKey: "fpk_x", fetch });
    await fintech.api.GET("/api/grpc/ledger/stream", {
      params: { query: { accountIds: ["a", "b"] } },
      parseAs: "text",
    });
    expect(new URL(requests[0]!.url).searchParams.get("accountIds")).toBe("a,b");
  });

  it("throws FintechError instead of returning an error reply", async () => {
    const { fetch } = scripted(() =>
      Response.json(
        { message: "Account not found", code: "not_found" },
        { status: 404, headers: { "X-Request-Id": "r-9" } },
      ),
    );
    const fintech = createFintechClient({ baseUrl: "http://api.test", apiKey: "fpk_x", fetch });
    const error = await fintech.api
      .GET("/api/v1/accounts/{id}", { params: { path: { id: "missing" } } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FintechError);
    expect(error).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
      message: "Account not found",
      apiCode: "not_found",
      requestId: "r-9",
    });
  });
});

import { describe, expect, it } from "vitest";
import { createHttpClient } from "./client";
import { railEndpoints } from "./rails";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const { fetch, calls } = fakeFetch(reply);
  const api = railEndpoints(
    createHttpClient({ baseUrl: "https://api.test", fetch, credentials: fakeTokens("t0k").source }),
  );
  return { api, calls };
}

describe("rails client", () => {
  it("lists, reads one (id encoded), and quotes with the amount as typed", async () => {
    const { api, calls } = setup((call) =>
      json(
        200,
        call.url.endsWith("/quote")
          ? {
              data: {
                amount: "1000.00",
                currency: "EUR",
                results: [{ railId: "sepa", isOptimal: true }],
                optimalRailId: "sepa",
              },
            }
          : call.url.endsWith("/rails")
            ? { data: [{ id: "ach" }] }
            : { data: { id: "a/b" } },
      ),
    );
    expect(await api.list()).toEqual([{ id: "ach" }]);
    expect(calls[0]!.url).toBe("https://api.test/api/v1/rails");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer t0k");
    expect(await api.get("a/b")).toEqual({ id: "a/b" });
    expect(calls[1]!.url).toBe("https://api.test/api/v1/rails/a%2Fb");
    expect(await api.quote("1000.00", "EUR")).toEqual([{ railId: "sepa", isOptimal: true }]);
    expect(calls[2]).toMatchObject({ method: "POST", body: { amount: "1000.00", currency: "EUR" } });
  });

  it("edits with PUT (percent as typed) and starts/stops with POST; a 403 carries the server's message", async () => {
    const { api, calls } = setup((call) =>
      call.url.endsWith("/stop")
        ? json(403, { message: "Admin role required", code: "forbidden" })
        : json(200, { data: { id: "ach", status: "active" } }),
    );
    await api.update("ach", {
      name: "ACH",
      type: "ACH",
      status: "active",
      fixedFee: "0.05",
      fxSpreadPercent: "1.5",
      slaTarget: "99.9",
      errorInjectionPercent: null,
      version: 3,
    });
    expect(calls[0]).toMatchObject({
      method: "PUT",
      url: "https://api.test/api/v1/rails/ach",
      body: { fxSpreadPercent: "1.5", version: 3 },
    });
    expect(await api.start("ach")).toEqual({ id: "ach", status: "active" });
    expect(calls[1]).toMatchObject({ method: "POST", url: "https://api.test/api/v1/rails/ach/start" });
    await expect(api.stop("ach")).rejects.toMatchObject({
      status: 403,
      message: "Admin role required",
      code: "forbidden",
    });
  });

  it("reads the statistics through core's schemas: range and limit in the query, a reply of another shape is an error", async () => {
    const throughput = {
      range: "1h",
      bucketSeconds: 60,
      from: "2026-11-26T04:00:00.000Z",
      to: "2026-11-26T04:01:00.000Z",
      series: [
        {
          railId: "ach",
          rail: "ACH",
          points: [{ at: "2026-11-26T04:00:00.000Z", transactions: 1, succeeded: 1, failed: 0 }],
        },
      ],
    };
    const { api, calls } = setup((call) =>
      json(
        200,
        call.url.includes("/throughput")
          ? { data: throughput }
          : call.url.includes("/decisions")
            ? { data: { scope: "own", decisions: [], savingsByDay: [] } }
            : { data: { totalVolume: "lots" } },
      ),
    );
    expect(await api.throughput("1h")).toEqual(throughput);
    expect(calls[0]!.url).toBe("https://api.test/api/v1/rails/throughput?range=1h");
    expect(await api.decisions(10)).toEqual({ scope: "own", decisions: [], savingsByDay: [] });
    expect(calls[1]!.url).toBe("https://api.test/api/v1/rails/decisions?limit=10");
    await expect(api.metrics()).rejects.toMatchObject({
      kind: "invalid-response",
      message: "Rail metrics: the reply is not in the expected format",
    });
  });
});

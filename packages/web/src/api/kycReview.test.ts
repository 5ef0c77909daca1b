import { describe, expect, it } from "vitest";
import { createHttpClient } from "./client";
import { kycReviewEndpoints } from "./kycReview";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const { fetch, calls } = fakeFetch(reply);
  const api = kycReviewEndpoints(
    createHttpClient({ baseUrl: "https://api.test", fetch, credentials: fakeTokens("t0k").source }),
  );
  return { api, calls };
}

describe("KYC review client", () => {
  it("sends the dashboard filters as a query string, trimmed, empty ones left out", async () => {
    const { api, calls } = setup(() => json(200, { data: [], next_cursor: "c2", total: 31 }));
    const page = await api.dashboard(
      { status: "pending", search: "  Asha ", country: "in", period: "30d" },
      { limit: 25, cursor: "c1" },
    );
    expect(calls[0]!.url).toBe(
      "https://api.test/api/v1/kyc/dashboard?status=pending&search=Asha&country=IN&period=30d&limit=25&cursor=c1",
    );
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer t0k");
    // A reply without has_more / total_capped reads them from the cursor and as uncapped.
    expect(page).toEqual({ data: [], next_cursor: "c2", has_more: true, total: 31, total_capped: false });
  });

  it("reads the last page (no cursor) and asks the stats and export for the same period and filters", async () => {
    const { api, calls } = setup((call) =>
      call.url.includes("/export")
        ? new Response("id,name\n", {
            status: 200,
            headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="kyc.csv"' },
          })
        : json(200, {
            data: call.url.includes("stats") ? { total_submissions: 1 } : [{ id: "s1" }],
            next_cursor: null,
            total: 1,
          }),
    );
    expect((await api.dashboard({ period: "7d", search: " " }, { limit: 25 })).next_cursor).toBeNull();
    expect(calls[0]!.url).toBe("https://api.test/api/v1/kyc/dashboard?period=7d&limit=25");
    await api.stats("24h");
    expect(calls[1]!.url).toBe("https://api.test/api/v1/kyc/dashboard/stats?period=24h");
    const file = await api.exportCsv({ period: "90d", priority: "high" });
    expect(calls[2]!.url).toBe("https://api.test/api/v1/kyc/dashboard/export?priority=high&period=90d");
    expect(file.filename).toBe("kyc.csv");
  });

  it("encodes ids in paths and sends decisions with an idempotency key", async () => {
    const { api, calls } = setup(() => json(200, { data: { results: [{ id: "a", ok: true }] } }));
    await api.decide("a/b", { status: "verified", notes: "ok" }, { idempotencyKey: "k1" });
    expect(calls[0]!.url).toBe("https://api.test/api/v1/kyc/submissions/a%2Fb");
    expect(calls[0]!.method).toBe("PUT");
    expect(calls[0]!.body).toEqual({ status: "verified", notes: "ok" });
    expect(calls[0]!.headers.get("Idempotency-Key")).toBe("k1");
    expect(await api.bulkUpdate({ ids: ["a"], status: "rejected" })).toEqual([{ id: "a", ok: true }]);
    expect(calls[1]!.body).toEqual({ ids: ["a"], status: "rejected" });
    expect(calls[1]!.headers.get("Idempotency-Key")).toBeTruthy();
  });
});

import { describe, expect, it } from "vitest";
import { createApi } from "../api/api";
import { createHttpClient } from "../api/client";
import { ApiError } from "../api/errors";
import { fakeFetch, fakeTokens, json } from "../api/testing";
import { CREDIT_SHARDS_TEXT, creditShardsChip, maySpreadCredits } from "./creditShards";
import { account } from "./fixtures";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(reply);
  const config = { baseUrl: "https://api.test", fetch: fake.fetch, credentials: fakeTokens("token-1").source };
  return { api: createApi(createHttpClient(config)), calls: fake.calls };
}

describe("credit shards in the workspace", () => {
  it("shows the chip only for an account whose credits are spread", () => {
    expect(creditShardsChip(account())).toBeNull();
    expect(creditShardsChip(account({ credit_shards: 32 }))).toBe("Credits on 32 shards");
  });

  it("offers the button to administrators on accounts not yet converted, never to owners", () => {
    expect(maySpreadCredits(account(), "admin")).toBe(true);
    expect(maySpreadCredits(account({ credit_shards: 32 }), "admin")).toBe(false);
    expect(maySpreadCredits(account(), "user")).toBe(false);
    expect(maySpreadCredits(account(), undefined)).toBe(false);
  });

  it("says what the change does and that the app cannot undo it", () => {
    expect(CREDIT_SHARDS_TEXT.explanation).toContain("balance shards");
    expect(CREDIT_SHARDS_TEXT.oneWay).toBe("This cannot be undone from the app.");
  });

  it("posts to the account's credit-shards route and returns the server's message", async () => {
    const reply = {
      message: "Incoming credits now spread over 32 balance shards",
      data: { account_id: "acc/1", credit_shards: 32, converted: true, at: "2026-03-01T10:00:00.000Z" },
    };
    const { api, calls } = setup(() => json(200, reply));
    expect(await api.ledger.enableCreditShards("acc/1")).toEqual(reply);
    expect(calls[0]!).toMatchObject({
      url: "https://api.test/api/v1/ledger/accounts/acc%2F1/credit-shards",
      method: "POST",
      body: {},
    });
  });

  it("carries the server's refusal (a non-admin's 403) as an ApiError with its message", async () => {
    const { api } = setup(() => json(403, { message: "Administrator role required", code: "admin_required" }));
    const failure = await api.ledger.enableCreditShards("acc-1").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe("Administrator role required");
  });
});

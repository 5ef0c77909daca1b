import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { AppError } from "../../shared/errors";
import {
  matchName,
  parseWatchlistCsv,
  prepareEntries,
  screenName,
  uploadWatchlist,
  watchlistSummary,
  WATCHLIST_LIMITS,
} from "./watchlist";

/** Watchlists: CSV parsing with line-numbered errors, fuzzy screening, versions across instances. */

function parseError(csv: string): string {
  try {
    parseWatchlistCsv(csv);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).code).toBe("invalid_watchlist");
    return (error as AppError).message;
  }
  throw new Error("the CSV was accepted");
}

describe("watchlist CSV", () => {
  it("reads name, aliases, country, list and type, with defaults, and reports ignored columns", () => {
    const { entries, ignoredColumns } = parseWatchlistCsv(
      '\uFEFFName,Aliases,Country,List,Type,Remarks\nIvan Petrov,"Ivan Petroff; I. Petrov",ru,Sanctions,Individual,x\n"Acme Trading, Ltd",,,,entity,\n\nJane Roe,,GB,pep,,\n',
    );
    expect(entries).toEqual([
      {
        name: "Ivan Petrov",
        aliases: ["Ivan Petroff", "I. Petrov"],
        country: "RU",
        list: "sanctions",
        type: "individual",
      },
      { name: "Acme Trading, Ltd", aliases: [], country: "", list: "sanctions", type: "entity" },
      { name: "Jane Roe", aliases: [], country: "GB", list: "pep", type: "" },
    ]);
    expect(ignoredColumns).toEqual(["Remarks"]);
  });

  it("names the line of each problem", () => {
    expect(parseError("name,country\nA,IN\nB,IN,extra\n")).toMatch(/^Watchlist CSV line 3: Invalid Record Length/);
    expect(parseError('name\n"Unclosed\n')).toMatch(/^Watchlist CSV line \d: Quote Not Closed/);
    expect(parseError("name,country\nA,IN\n ,IN\n")).toBe("Watchlist CSV line 3: name is empty");
    expect(parseError("full_name,country\nA,IN\n")).toBe(
      "Watchlist CSV line 1: the header has no name column (columns: name, aliases, country, list, type)",
    );
    expect(parseError(`name\n${"x".repeat(201)}\n`)).toBe("Watchlist CSV line 2: name is longer than 200 characters");
    expect(parseError(`name,aliases\nA,B;${"y".repeat(201)}\n`)).toBe(
      "Watchlist CSV line 2: an alias is longer than 200 characters",
    );
    expect(parseError(`name,aliases\nA,${Array.from({ length: 21 }, (_, index) => `a${index}`).join(";")}\n`)).toBe(
      "Watchlist CSV line 2: more than 20 aliases",
    );
  });

  it("refuses an empty file, a header alone, too many rows and too many bytes", () => {
    expect(parseError("")).toContain("empty");
    expect(parseError("name\n")).toBe("The watchlist CSV has a header but no entries");
    expect(
      parseError(
        `name\n${Array.from({ length: WATCHLIST_LIMITS.maxRows + 1 }, (_, index) => `N${index}`).join("\n")}\n`,
      ),
    ).toBe("A watchlist has at most 20000 rows");
    expect(parseError(`name\n${"a".repeat(WATCHLIST_LIMITS.maxBytes)}\n`)).toBe("A watchlist CSV is at most 2 MB");
  });
});

describe("screening", () => {
  const entries = prepareEntries(
    parseWatchlistCsv("name,aliases,list\nVladimir Putin,Vladimir Poutine,sanctions\nJane Roe,,pep\n").entries,
  );

  it("finds spelling variants, aliases and reordered names at or above 0.92", () => {
    expect(matchName(entries, "PUTIN, Vladimir")[0]).toMatchObject({ matched: "Vladimir Putin", score: 1 });
    const variant = matchName(entries, "Vladimir Poutin")[0]!;
    expect(variant.score).toBeGreaterThanOrEqual(0.92);
    expect(variant.entry.list).toBe("sanctions");
    expect(matchName(entries, "Roe Jane")[0]).toMatchObject({ matched: "Jane Roe", score: 1, entry: { list: "pep" } });
  });

  it("does not hit different names", () => {
    expect(matchName(entries, "Asha Rao")).toEqual([]);
    expect(matchName(entries, "Vladimir Nabokov")).toEqual([]);
    expect(matchName(entries, "")).toEqual([]);
  });
});

describe("stored watchlists", () => {
  let first: Awaited<ReturnType<typeof createTestContext>>;
  let second: Awaited<ReturnType<typeof createTestContext>>;
  beforeAll(async () => {
    first = await createTestContext();
    // A second instance (own client and caches) over the same table.
    second = await createTestContext({ TABLE_NAME: first.db.table });
  });
  afterAll(async () => {
    second.db.raw.destroy();
    await first.dispose();
  });

  it("has no entries before an upload", async () => {
    expect(await screenName(first, "Vladimir Putin")).toEqual([]);
    expect(await watchlistSummary(first)).toEqual({
      version: null,
      name: null,
      entries: 0,
      lists: {},
      uploaded_at: null,
      uploaded_by: null,
      sample: [],
    });
  });

  it("makes each upload the current version, seen by every instance on its next screening", async () => {
    expect(await screenName(second, "Ivan Petrov")).toEqual([]);
    const one = await uploadWatchlist(
      first,
      { csv: "name,list\nIvan Petrov,sanctions\n", name: "OFAC extract" },
      "admin@example.com",
    );
    expect(one).toMatchObject({
      version: 1,
      name: "OFAC extract",
      entries: 1,
      lists: { sanctions: 1 },
      uploaded_by: "admin@example.com",
      ignored_columns: [],
    });
    expect((await screenName(second, "Ivan Petrov")).map((hit) => hit.entry.name)).toEqual(["Ivan Petrov"]);

    const rows = Array.from({ length: 600 }, (_, index) => `Person Number${index},pep`);
    const two = await uploadWatchlist(
      second,
      { csv: `name,list\n${rows.join("\n")}\nJane Roe,pep\n` },
      "other@example.com",
    );
    expect(two).toMatchObject({ version: 2, name: "Watchlist", entries: 601, lists: { pep: 601 } });
    // The first instance cached version 1; the pointer sends it to version 2 (three chunks).
    expect(await screenName(first, "Ivan Petrov")).toEqual([]);
    expect((await screenName(first, "Jane Roe"))[0]).toMatchObject({ score: 1, entry: { list: "pep" } });
    const summary = await watchlistSummary(first);
    expect(summary).toMatchObject({ version: 2, entries: 601, uploaded_by: "other@example.com" });
    expect(summary.sample).toHaveLength(10);
    expect(summary.sample[0]).toEqual({ name: "Person Number0", aliases: [], country: "", list: "pep", type: "" });
  });

  it("gives concurrent uploads distinct versions and leaves the newest current", async () => {
    const results = await Promise.all(
      [1, 2, 3].map((index) => uploadWatchlist(first, { csv: `name\nConcurrent ${index}\n` }, "admin@example.com")),
    );
    expect(results.map((result) => result.version).sort()).toEqual([3, 4, 5]);
    expect((await watchlistSummary(second)).version).toBe(5);
  });

  it("stores the largest lists: 20,000 rows, and rows with 20 long aliases each", async () => {
    const rows = Array.from(
      { length: WATCHLIST_LIMITS.maxRows },
      (_, index) => `Listed Person ${index.toString(36)},sanctions`,
    );
    const many = await uploadWatchlist(first, { csv: `name,list\n${rows.join("\n")}\n` }, "admin@example.com");
    expect(many.entries).toBe(WATCHLIST_LIMITS.maxRows);
    expect((await screenName(second, `Listed Person ${(19_999).toString(36)}`))[0]).toMatchObject({ score: 1 });

    const alias = (row: number, index: number) => `Alias ${row} ${index} ${"x".repeat(180)}`;
    const wide = Array.from(
      { length: 120 },
      (_, row) => `Wide ${row},"${Array.from({ length: 20 }, (_, index) => alias(row, index)).join(";")}"`,
    );
    const stored = await uploadWatchlist(first, { csv: `name,aliases\n${wide.join("\n")}\n` }, "admin@example.com");
    expect(stored.entries).toBe(120);
    expect((await screenName(second, alias(119, 19)))[0]).toMatchObject({
      matched: alias(119, 19),
      entry: { name: "Wide 119" },
    });
  });

  it("changes nothing when the CSV is refused", async () => {
    await expect(uploadWatchlist(first, { csv: 'name\n"broken\n' }, "admin@example.com")).rejects.toThrow(/line/);
    expect((await watchlistSummary(first)).version).toBe(7);
  });
});

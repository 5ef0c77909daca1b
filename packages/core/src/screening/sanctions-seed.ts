import type { WatchlistEntry } from "../kyc/risk/model";

/**
 * The sanctions list every payee is screened against even before an administrator uploads one,
 * so screening is never empty. Rows follow the columns of OFAC's SDN CSV (sdn.csv: ent_num,
 * SDN_Name, SDN_Type, Program, ..., Remarks), with names written as the SDN list writes them
 * ("LAST, First"; the matcher ignores order and punctuation). They are a handful of long-standing,
 * widely published designations, not the list: the current SDN list (or an EU/UN consolidated
 * list) is loaded as a CSV through the KYC rules' watchlist upload, and its `sanctions` entries are
 * screened beside these (screening/screen.ts). `entNum` is this seed's own row number, not
 * OFAC's entity number.
 */

export interface SdnRow {
  entNum: string;
  sdnName: string;
  sdnType: "individual" | "entity";
  program: string;
  /** ISO 3166-1 alpha-2 of the country the listing is tied to. */
  country: string;
  aliases: readonly string[];
  remarks: string;
}

export const SEEDED_SANCTIONS_LIST = {
  name: "Seeded sanctions sample (SDN style)",
  version: "2026-01",
  rows: [
    {
      entNum: "seed-1",
      sdnName: "KIM, Jong Un",
      sdnType: "individual",
      program: "DPRK",
      country: "KP",
      aliases: ["KIM, Jong-un"],
      remarks: "Supreme leader of the DPRK",
    },
    {
      entNum: "seed-2",
      sdnName: "KOREA MINING DEVELOPMENT TRADING CORPORATION",
      sdnType: "entity",
      program: "NPWMD",
      country: "KP",
      aliases: ["KOMID"],
      remarks: "DPRK arms dealer",
    },
    {
      entNum: "seed-3",
      sdnName: "BANK MELLAT",
      sdnType: "entity",
      program: "IRAN",
      country: "IR",
      aliases: [],
      remarks: "Iranian state bank",
    },
    {
      entNum: "seed-4",
      sdnName: "MAHAN AIR",
      sdnType: "entity",
      program: "SDGT",
      country: "IR",
      aliases: ["MAHAN AIRLINES"],
      remarks: "Iranian airline",
    },
    {
      entNum: "seed-5",
      sdnName: "ISLAMIC REVOLUTIONARY GUARD CORPS",
      sdnType: "entity",
      program: "SDGT",
      country: "IR",
      aliases: ["IRGC"],
      remarks: "Iranian armed forces branch",
    },
    {
      entNum: "seed-6",
      sdnName: "BANCO NACIONAL DE CUBA",
      sdnType: "entity",
      program: "CUBA",
      country: "CU",
      aliases: [],
      remarks: "Cuban state bank",
    },
    {
      entNum: "seed-7",
      sdnName: "HIZBALLAH",
      sdnType: "entity",
      program: "SDGT",
      country: "LB",
      aliases: ["HEZBOLLAH", "HIZBULLAH"],
      remarks: "Lebanon-based organisation",
    },
    {
      entNum: "seed-8",
      sdnName: "AL QA'IDA",
      sdnType: "entity",
      program: "SDGT",
      country: "",
      aliases: ["AL-QAEDA", "AL QAEDA"],
      remarks: "Terrorist organisation",
    },
  ] satisfies SdnRow[],
} as const;

/** The seed as watchlist entries (the matcher's shape), list "sanctions". */
export const seededSanctionsEntries = (): WatchlistEntry[] =>
  SEEDED_SANCTIONS_LIST.rows.map((row) => ({
    name: row.sdnName,
    aliases: [...row.aliases],
    country: row.country,
    list: "sanctions",
    type: row.sdnType,
  }));

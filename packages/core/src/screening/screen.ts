import { matchName, prepareEntries, screenName, type PreparedEntry, type WatchlistHit } from "../kyc/risk/watchlist";
import type { CoreContext } from "../shared/context";
import { unprocessable } from "../shared/errors";
import { embargoOf } from "./embargoes";
import {
  SCREENED_NAME_MAX,
  SCREENING_MESSAGES,
  type ScreeningDecision,
  type ScreeningMatch,
  type ScreeningSubject,
} from "./model";
import { SEEDED_SANCTIONS_LIST, seededSanctionsEntries } from "./sanctions-seed";

/**
 * Screening one counterparty: the embargo first (a refusal), then the name against the sanctions
 * lists (a hit is a review case). The name matcher is the KYC rules' own (kyc/risk/watchlist.ts:
 * normalised names, token order ignored, Jaro-Winkler >= 0.92), over the seeded list and the
 * `sanctions` entries of the watchlist administrators upload there; PEP entries of that upload are
 * KYC's concern, not a reason to stop a payment.
 */

export interface Counterparty {
  subject: ScreeningSubject;
  name: string | null;
  /** ISO alpha-2; null when unknown. */
  country: string | null;
  /** Whether the payer gave the country (a beneficiary's): only then does the refusal name it. */
  countryFromPayer: boolean;
}

const SEED_LABEL = `${SEEDED_SANCTIONS_LIST.name} ${SEEDED_SANCTIONS_LIST.version}`;
const UPLOADED_LABEL = "Uploaded watchlist (sanctions entries)";

let seeded: PreparedEntry[] | null = null;
const seededEntries = (): PreparedEntry[] => (seeded ??= prepareEntries(seededSanctionsEntries()));

/** 422 `embargoed_country` when the counterparty's country is embargoed; nothing is read or written. */
export function requireNotEmbargoed(counterparty: Counterparty): void {
  if (!counterparty.country) return;
  const embargo = embargoOf(counterparty.country);
  if (!embargo) return;
  const message = counterparty.countryFromPayer
    ? SCREENING_MESSAGES.embargoedBeneficiary(embargo.name)
    : SCREENING_MESSAGES.embargoedPayee;
  throw unprocessable(message, "embargoed_country");
}

const matchOf = (list: string, hit: WatchlistHit): ScreeningMatch => ({
  list,
  entry: hit.entry.name,
  matchedName: hit.matched,
  entryType: hit.entry.type,
  entryCountry: hit.entry.country,
  score: Math.round(hit.score * 10_000) / 10_000,
});

/**
 * Screens a counterparty at `at`: refuses an embargoed country (requireNotEmbargoed), then
 * matches the name. The decision names the best match over every list, and the lists consulted.
 */
export async function screenCounterparty(
  ctx: CoreContext,
  counterparty: Counterparty,
  at: string,
): Promise<ScreeningDecision> {
  requireNotEmbargoed(counterparty);
  const name = counterparty.name?.slice(0, SCREENED_NAME_MAX) ?? null;
  if (counterparty.subject === "own_account" || !name) {
    return {
      subject: counterparty.subject,
      result: "clear",
      screenedName: name,
      screenedCountry: counterparty.country,
      match: null,
      lists: [],
      at,
    };
  }
  const seededHits = matchName(seededEntries(), name).map((hit) => matchOf(SEED_LABEL, hit));
  const uploadedHits = (await screenName(ctx, name))
    .filter((hit) => hit.entry.list === "sanctions")
    .map((hit) => matchOf(UPLOADED_LABEL, hit));
  const best = [...seededHits, ...uploadedHits].sort((a, b) => b.score - a.score)[0] ?? null;
  return {
    subject: counterparty.subject,
    result: best ? "hit" : "clear",
    screenedName: name,
    screenedCountry: counterparty.country,
    match: best,
    lists: [SEED_LABEL, UPLOADED_LABEL],
    at,
  };
}

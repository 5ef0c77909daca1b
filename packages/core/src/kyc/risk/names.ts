import { jaroWinkler } from "@skyra/jaro-winkler";

/**
 * Name comparison for watchlist screening and the profile/KYC name check. Jaro-Winkler comes from
 * @skyra/jaro-winkler (typed, no dependencies, compares by code point; it gives the published
 * vectors MARTHA/MARHTA 0.961, DWAYNE/DUANE 0.84, DIXON/DICKSONX 0.813). What is ours is the
 * normalisation: case, accents, punctuation and honorifics do not make two names different, and
 * neither does the order of their parts ("Kim Jong Un" is "Jong Un Kim").
 */

export { jaroWinkler };

const HONORIFICS = new Set(["MR", "MRS", "MS", "MISS", "DR", "PROF", "SIR", "SHRI", "SMT", "KUMARI", "MX"]);
export const MAX_NAME_LENGTH = 200;

/** Upper case, accents removed, punctuation as spaces, honorifics dropped, single spaces. */
export function normaliseName(name: string): string {
  return name
    .slice(0, MAX_NAME_LENGTH)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter((part) => part && !HONORIFICS.has(part))
    .join(" ");
}

/** The name's parts in alphabetical order: the key that makes comparison order-insensitive. */
export const sortedTokens = (normalised: string) => normalised.split(" ").filter(Boolean).sort().join(" ");

/**
 * Similarity 0-1 of two names: Jaro-Winkler of the normalised names with their parts sorted, or
 * as written when that is higher (sorting can split a prefix that matched). Empty names match nothing.
 */
export function nameSimilarity(a: string, b: string): number {
  const left = normaliseName(a);
  const right = normaliseName(b);
  if (!left || !right) return 0;
  if (left === right) return 1;
  return Math.max(jaroWinkler(sortedTokens(left), sortedTokens(right)), jaroWinkler(left, right));
}

/** A base no real page has, so only a same-origin path resolves back onto it. */
const PROBE_ORIGIN = "https://router-test.invalid";

export type PathCheck = { ok: true; to: string } | { ok: false; message: string };

/**
 * Checks a path typed into the router-test form. Only same-origin paths starting with "/" pass;
 * "//host" and "/\host" start with "/" too but browsers read them as another host, so the URL
 * parser (not a prefix test) decides.
 */
export function checkRouterTestPath(input: string): PathCheck {
  const text = input.trim();
  if (!text.startsWith("/")) return { ok: false, message: "Enter a path that starts with /, e.g. /ledger?tab=1#top" };
  let url: URL;
  try {
    url = new URL(text, PROBE_ORIGIN);
  } catch {
    return { ok: false, message: "That is not a valid path." };
  }
  if (url.origin !== PROBE_ORIGIN) return { ok: false, message: "Only paths on this site can be opened here." };
  return { ok: true, to: `${url.pathname}${url.search}${url.hash}` };
}

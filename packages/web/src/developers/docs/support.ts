/**
 * The public code repository the documentation footer links to. None is published yet: set
 * VITE_SOURCE_REPOSITORY_URL at build time (e.g. https://github.com/<org>/<repo>) and the footer
 * links there; without it the footer says the link is coming rather than inventing one.
 */
export const SOURCE_REPOSITORY_URL: string | null = readRepositoryUrl(import.meta.env.VITE_SOURCE_REPOSITORY_URL);

/** Only an absolute https address is used. */
export function readRepositoryUrl(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

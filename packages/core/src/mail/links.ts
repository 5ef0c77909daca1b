import type { AppConfig } from "../shared/config";

/**
 * A link into the web app for a mail: APP_URL, else the configured web origin (CORS_ORIGINS,
 * localhost first), else the path alone (a stack on a random port knows no origin up front).
 */
export function appLink(
  config: Pick<AppConfig, "APP_URL" | "CORS_ORIGINS">,
  path: string,
  params: Record<string, string>,
): string {
  const base =
    config.APP_URL ??
    config.CORS_ORIGINS.find((origin) => new URL(origin).hostname === "localhost") ??
    config.CORS_ORIGINS[0];
  const query = new URLSearchParams(params).toString();
  const relative = `${path}${query ? `?${query}` : ""}`;
  return base ? new URL(relative, base).toString() : relative;
}

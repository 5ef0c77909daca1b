export interface Pagination {
  limit?: number;
  offset?: number;
}

export type QueryValue = string | number | boolean | null | undefined;

/**
 * Appends query parameters, leaving out falsy ones: limit and offset are sent only when truthy
 * (docs/product/backend-client.md#addresses-and-requests), so offset 0 is never sent.
 */
export function withQuery(path: string, params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value) search.append(name, String(value));
  }
  const query = search.toString();
  if (!query) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

export const withPagination = (path: string, page: Pagination = {}): string =>
  withQuery(path, { limit: page.limit, offset: page.offset });

/** Path segments from user data (ids) are always encoded. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

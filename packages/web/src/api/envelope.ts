const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Replies wrap their payload as {data: ...}; bare payloads are accepted too. */
export function unwrapData<T>(body: unknown): T {
  return (isRecord(body) && "data" in body ? body.data : body) as T;
}

/**
 * List replies come as a bare array or as an object holding the array under one of `keys`
 * (docs/product/backend-client.md#authenticated-calls: available accounts use accounts or data, history uses data).
 */
export function unwrapList<T>(body: unknown, keys: readonly string[] = ["data"]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (isRecord(body)) {
    for (const key of keys) {
      const value = body[key];
      if (Array.isArray(value)) return value as T[];
      // {data: {accounts: [...]}} and similar one-level nestings.
      if (isRecord(value)) {
        const nested = unwrapList<T>(value, keys);
        if (nested.length > 0) return nested;
      }
    }
  }
  return [];
}

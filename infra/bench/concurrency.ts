/** Runs `work` for every index 0..count-1 with at most `limit` calls in flight; results in index order. */
export async function inBatches<T>(count: number, limit: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

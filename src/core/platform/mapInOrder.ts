/**
 * Runs `run` over `items` with at most `limit` in flight, starting them in input order; the results keep that order.
 * Callers whose `run` never throws get every result; a rejection rejects the whole, the others still running.
 */
export async function mapInOrder<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

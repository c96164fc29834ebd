/** One item's outcome with the wall time it took from its start to its end. */
export interface Timed<R> {
  index: number;
  ms: number;
  result: R;
}

/**
 * Runs `work` over the items with at most `width` in flight, starting the next item as soon as
 * one finishes. Both sides of the bench feed documents through this, so they see the same
 * concurrency and their per-document latencies mean the same thing.
 */
export async function runWindow<T, R>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<{ elapsedMs: number; items: Timed<R>[] }> {
  const results: Timed<R>[] = new Array(items.length);
  let next = 0;
  const started = performance.now();
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const t0 = performance.now();
      const result = await work(items[index] as T, index);
      results[index] = { index, ms: performance.now() - t0, result };
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return { elapsedMs: performance.now() - started, items: results };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

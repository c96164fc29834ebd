import type { SearchHit, TenantScope } from '../stores/ports';
import { percentile, round } from './searchMeasures';

/** One side's dense list: a store's searchDense with its model and settings fixed. */
export type DenseSearch = (scope: TenantScope, vector: number[], limit: number) => Promise<SearchHit[]>;

/** The exact top 10 of each query by cosine (unit vectors: the dot product), fed one row at a time. */
export class ExactTop10 {
  private readonly ids: string[][];
  private readonly scores: number[][];

  constructor(private readonly queries: readonly number[][]) {
    this.ids = queries.map(() => []);
    this.scores = queries.map(() => []);
  }

  offer(id: string, vector: readonly number[]): void {
    this.queries.forEach((query, q) => {
      let score = 0;
      for (let i = 0; i < query.length; i += 1) score += (query[i] as number) * (vector[i] as number);
      const scores = this.scores[q] as number[];
      const ids = this.ids[q] as string[];
      if (scores.length === 10 && score <= (scores[9] as number)) return;
      let at = scores.length;
      while (at > 0 && (scores[at - 1] as number) < score) at -= 1;
      scores.splice(at, 0, score);
      ids.splice(at, 0, id);
      if (scores.length > 10) {
        scores.pop();
        ids.pop();
      }
    });
  }

  top(): string[][] {
    return this.ids.map((ids) => [...ids]);
  }
}

const summary = (values: number[]) => ({ p50Ms: round(percentile(values, 50)), p99Ms: round(percentile(values, 99)) });

/**
 * p50 / p99 of each side's dense list alone (`limit` rows, 50 as bench/searchMeasures.ts partTimes
 * asks), query by query in an order that alternates, after `warmup` unmeasured queries.
 */
export async function denseLatencies(
  sides: Record<string, { search: DenseSearch; scope: TenantScope; queries: number[][] }>,
  limit = 50,
  warmup = 5,
): Promise<Record<string, { p50Ms: number; p99Ms: number }>> {
  const entries = Object.entries(sides);
  const times: Record<string, number[]> = Object.fromEntries(entries.map(([name]) => [name, []]));
  const count = Math.max(...entries.map(([, side]) => side.queries.length));
  for (let q = -warmup; q < count; q += 1) {
    for (const [name, side] of q % 2 === 0 ? entries : [...entries].reverse()) {
      const query = side.queries[Math.abs(q) % side.queries.length] as number[];
      const started = performance.now();
      const hits = await side.search(side.scope, query, limit);
      if (hits.length === 0) throw new Error(`no dense hit on side ${name}`);
      if (q >= 0) times[name]?.push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, summary(values)]));
}

/** Recall@10 of the dense list against `exact` (the exact top 10 of each query), with the share of full lists and p50 / p99. */
export async function recallAt10(
  search: DenseSearch,
  scope: TenantScope,
  queries: number[][],
  exact: string[][],
): Promise<{ queries: number; recallAt10: number; fullListShare: number; p50Ms: number; p99Ms: number }> {
  let found = 0;
  let full = 0;
  const times: number[] = [];
  for (const [q, ids] of exact.entries()) {
    const started = performance.now();
    const hits = await search(scope, queries[q] as number[], 10);
    times.push(performance.now() - started);
    if (hits.length === 10) full += 1;
    found += hits.filter((hit) => ids.includes(hit.chunkId)).length;
  }
  return {
    queries: exact.length,
    recallAt10: round(found / (exact.length * 10), 3),
    fullListShare: round(full / exact.length, 3),
    ...summary(times),
  };
}

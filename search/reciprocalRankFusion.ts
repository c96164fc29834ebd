import type { SearchHit } from '../stores/ports';

/** The usual RRF constant: it damps the weight of the very top ranks of any single list. */
export const RRF_K = 60;

export interface FusedHit {
  chunkId: string;
  score: number;
  /** Rank (1-based) of the chunk in each list it appeared in. */
  ranks: Record<string, number>;
}

/**
 * Reciprocal rank fusion: each list contributes 1 / (k + rank). Only ranks matter, so dense
 * cosine, sparse dot products and full-text ranks can be fused without calibrating scores.
 */
export function reciprocalRankFusion(lists: Record<string, SearchHit[]>, k = RRF_K): FusedHit[] {
  const fused = new Map<string, FusedHit>();
  for (const [name, hits] of Object.entries(lists)) {
    hits.forEach((hit, i) => {
      const entry = fused.get(hit.chunkId) ?? { chunkId: hit.chunkId, score: 0, ranks: {} };
      entry.score += 1 / (k + i + 1);
      entry.ranks[name] = i + 1;
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

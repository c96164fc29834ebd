import type { SearchHit } from '../stores/ports';

export interface FusionSettings {
  /** RRF's constant: the larger, the less the very top ranks of any single list dominate. */
  k: number;
  /** Each list's multiplier, by list name; a list without one counts 1. */
  weights: Readonly<Record<string, number>>;
}

/** The usual RRF constant (Cormack et al., 2009): plain RRF, the reference the tuning is compared with. */
export const RRF_K = 60;

/**
 * Tuned on the labelled retrieval set (eval/retrieval, `npm run eval:retrieval`: 88 questions over
 * Debian manuals in English and Chinese, real embedder, the query embedded as its bare terms:
 * search/denseQuery.ts). Dense leads; sparse adds half as much; the keyword list, which ranks the
 * same tokens as sparse and less well here (Postgres ts_rank_cd), only breaks ties. Chosen as the
 * best grid region (each cell scored with its neighbours): recall@5 0.746 (en) / 0.840 (zh)
 * against plain RRF's (k 60, equal weights) 0.587 / 0.760; tuned on either half of the
 * questions and scored on the other, 0.779 against 0.672. bench-results/retrieval.json holds the grid.
 */
export const DEFAULT_FUSION: FusionSettings = { k: 5, weights: { dense: 1, sparse: 0.5, keyword: 0.1 } };

export interface FusedHit {
  chunkId: string;
  score: number;
  /** Rank (1-based) of the chunk in each list it appeared in. */
  ranks: Record<string, number>;
}

/**
 * Weighted reciprocal rank fusion: each list contributes weight / (k + rank). Only ranks matter,
 * so dense cosine, sparse dot products and full-text ranks can be fused without calibrating scores.
 */
export function reciprocalRankFusion(
  lists: Record<string, SearchHit[]>,
  settings: FusionSettings = DEFAULT_FUSION,
): FusedHit[] {
  const fused = new Map<string, FusedHit>();
  for (const [name, hits] of Object.entries(lists)) {
    const weight = settings.weights[name] ?? 1;
    hits.forEach((hit, i) => {
      const entry = fused.get(hit.chunkId) ?? { chunkId: hit.chunkId, score: 0, ranks: {} };
      entry.score += weight / (settings.k + i + 1);
      entry.ranks[name] = i + 1;
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

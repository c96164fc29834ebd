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
 * Debian manuals in English and Chinese, real embedder). Dense leads; the two lexical lists, which
 * rank the same tokens, add less each; a small k lets a list's first places decide. All 24 cells
 * around it (k 1-5, sparse 0.25-1, keyword 0.25-0.5) beat plain RRF (k 60, equal weights) on
 * recall@5, 0.72-0.79 against 0.69; bench-results/retrieval.json holds the grid and a held-out check.
 */
export const DEFAULT_FUSION: FusionSettings = { k: 1, weights: { dense: 1, sparse: 0.5, keyword: 0.25 } };

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
export function reciprocalRankFusion(lists: Record<string, SearchHit[]>, settings: FusionSettings = DEFAULT_FUSION): FusedHit[] {
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

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
 * Chosen by the fusion grid on the tuning half of the retrieval eval (eval/retrieval, `npm run
 * eval:retrieval`: 414 questions over 14 document sets in English and Chinese, real embedder;
 * each cell scored with its grid neighbours), with language routing and the identifier list on.
 * Sparse leads, dense close behind; the keyword list (Postgres ts_rank_cd ranks the same tokens
 * less well) only breaks ties; the identifier list lifts passages naming the query's option or
 * variable. k = 1: the top of each list counts most. On the held-out half this setting took
 * fused recall@5 from 0.649 (en) / 0.776 (zh) under the previous default (k 5, dense 1, sparse
 * 0.5, keyword 0.1) to the figures in docs/retrieval-eval.md.
 */
export const DEFAULT_FUSION: FusionSettings = {
  k: 1,
  weights: { dense: 1, sparse: 1.5, keyword: 0.1, identifier: 0.75 },
};

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
    // A list weighted 0 is left out, as search leaves it unasked: its hits would only pad the page.
    if (weight <= 0) continue;
    hits.forEach((hit, i) => {
      const entry = fused.get(hit.chunkId) ?? { chunkId: hit.chunkId, score: 0, ranks: {} };
      entry.score += weight / (settings.k + i + 1);
      entry.ranks[name] = i + 1;
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

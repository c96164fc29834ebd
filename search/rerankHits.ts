import { RerankFailedError } from '../rerank/rerankClient';
import type { Reranker } from '../rerank/rerankerResolver';

/** What a search's response says of its reranker. */
export type RerankReport =
  | { applied: false; reason: 'none configured' | 'off for the dataset' }
  | { applied: true; model: string; candidates: number; ms: number }
  | { applied: false; model: string; candidates: number; ms: number; reason: string };

/** What a candidate must carry to be reranked. */
export interface RerankCandidate {
  text: string;
  score: number;
}

/**
 * The most of a candidate's text the reranker is sent: rerankers read about 512 tokens of a text and
 * cut the rest, so more is only bytes on the wire (50 candidates × 64 KB would be 3 MB a search).
 */
export const RERANK_TEXT_MAX_CHARS = 4_000;

/**
 * The fused candidates in the reranker's order, each with `fusedScore` (its fused score) and, where
 * the reranker scored it, `rerankScore` (0..1), which becomes its `score`. A candidate the answer
 * left out follows the scored ones in fused order. When the call fails or times out, the fused
 * order is returned unchanged and the report says why: a reranker never fails a search.
 */
export async function rerankHits<H extends RerankCandidate>(
  query: string,
  hits: H[],
  reranker: Reranker,
): Promise<{ hits: (H & { fusedScore: number; rerankScore?: number })[]; report: RerankReport }> {
  const started = performance.now();
  const base = { model: reranker.model, candidates: hits.length };
  const fusedOnly = hits.map((hit) => ({ ...hit, fusedScore: hit.score }));
  if (hits.length === 0) return { hits: fusedOnly, report: { applied: true, ...base, ms: 0 } };
  let scores: (number | null)[];
  try {
    scores = await reranker.rerank(
      query,
      hits.map((h) => h.text.slice(0, RERANK_TEXT_MAX_CHARS)),
    );
  } catch (error) {
    if (!(error instanceof RerankFailedError)) throw error;
    const ms = Math.round(performance.now() - started);
    return { hits: fusedOnly, report: { applied: false, ...base, ms, reason: error.reason } };
  }
  const ranked = fusedOnly.map((hit, fusedRank) => ({ hit, fusedRank, rerankScore: scores[fusedRank] ?? null }));
  ranked.sort((a, b) => {
    if (a.rerankScore !== null && b.rerankScore !== null && a.rerankScore !== b.rerankScore)
      return b.rerankScore - a.rerankScore;
    if ((a.rerankScore === null) !== (b.rerankScore === null)) return a.rerankScore === null ? 1 : -1;
    return a.fusedRank - b.fusedRank;
  });
  const ms = Math.round(performance.now() - started);
  return {
    hits: ranked.map(({ hit, rerankScore }) =>
      rerankScore === null ? hit : { ...hit, score: rerankScore, rerankScore },
    ),
    report: { applied: true, ...base, ms },
  };
}

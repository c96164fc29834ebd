import type { RerankerResolver } from '../rerank/rerankerResolver';
import type { TenantScope } from '../stores/ports';
import { hitTexts } from '../db/repositories/servedChunks';
import { HIT_TEXT_MAX_CHARS, searchWithSettings, type SearchDeps, type SearchResult } from './hybridSearch';
import { RERANK_TEXT_MAX_CHARS, rerankHits, type RerankReport } from './rerankHits';
import type { SearchSettings } from './searchSettings';

/** A hit as search answers it: `score` is the reranker's where it scored the hit, else the fused one. */
export type RankedResult = SearchResult & { fusedScore: number; rerankScore?: number };

export interface SearchResponse {
  hits: RankedResult[];
  rerank: RerankReport;
}

export type RerankingSearchDeps = SearchDeps & { rerankers: RerankerResolver };

/**
 * A search as users get it: the fused lists (searchWithSettings), then, where the user has a
 * reranker and the dataset does not turn it off, the first max(limit, N) fused candidates reordered
 * by it (N: the dataset's `rerankCandidates`, else SLUICE_RERANK_CANDIDATES) and the page cut from
 * them. A reranker that fails or times out leaves the fused order, and the response says so.
 */
export async function searchDataset(
  deps: RerankingSearchDeps,
  scope: TenantScope,
  query: string,
  limit: number,
  settings: SearchSettings,
): Promise<SearchResponse> {
  const reranker = settings.rerank ? await deps.rerankers.forUser(scope.userId) : null;
  if (!reranker) {
    const hits = await searchWithSettings(deps, scope, query, limit, settings);
    return {
      hits: hits.map((hit) => ({ ...hit, fusedScore: hit.score })),
      rerank: { applied: false, reason: settings.rerank ? 'none configured' : 'off for the dataset' },
    };
  }
  const candidates = Math.max(limit, settings.rerankCandidates ?? deps.rerankers.candidates);
  // The candidates' texts only as far as the reranker reads them; whole texts for the page alone.
  const fused = await searchWithSettings(deps, scope, query, candidates, settings, RERANK_TEXT_MAX_CHARS);
  const { hits, report } = await rerankHits(query, fused, reranker);
  const page = hits.slice(0, limit);
  const texts = await hitTexts(
    deps.db,
    scope,
    page.map((hit) => hit.chunkId),
    HIT_TEXT_MAX_CHARS,
  );
  return {
    hits: page.map((hit) => {
      const text = texts.get(hit.chunkId);
      return text ? { ...hit, text: text.text, textTruncated: text.truncated } : hit;
    }),
    rerank: report,
  };
}

import type { SearchRetriever, SearchSettingsInput } from '../contracts/searchSettings';
import { SEARCH_RETRIEVERS } from '../contracts/searchSettings';
import type { SearchScope } from '../stores/ports';
import { languageWanted, type WantedLanguage } from './languageRouting';
import { searchSettingsFor } from './hybridSearch';
import type { RerankReport } from './rerankHits';
import { searchDataset, type RerankingSearchDeps } from './searchDataset';
import type { SearchSettings } from './searchSettings';

export interface HitTestHit {
  /** The hit's place in the answer (1 = best): the reranker's order where it applied, else the fused one. */
  rank: number;
  chunkId: string;
  documentId: string;
  fileName: string;
  sectionPath: string[];
  pages: { first: number; last: number } | null;
  text: string;
  textTruncated: boolean;
  /**
   * The fused score: the sum over the lists that found the chunk of weight / (k + rank), times
   * languageFactor.
   */
  score: number;
  /** The fused score, whether or not the reranker then scored the hit. */
  fusedScore: number;
  /** The reranker's score (0..1); undefined where it did not score the hit. */
  rerankScore?: number;
  /** Each retriever's rank of the chunk (1-based), null where that list did not return it. */
  ranks: Record<SearchRetriever, number | null>;
  /** 1, or what language routing multiplied the score by for a hit in another language than wanted. */
  languageFactor: number;
}

export interface HitTestResult {
  /** The settings the test ran with: the defaults, the dataset's own, then the adjustment. */
  settings: SearchSettings;
  /** The language the query wants its answers in, and whether it named it (search/languageRouting.ts). */
  wantedLanguage: WantedLanguage | null;
  /** Whether the user's reranker reordered the hits, or why not. */
  rerank: RerankReport;
  hits: HitTestHit[];
}

/**
 * An admin's retrieval test of a dataset: the same search users get (reranker included), with the query's own
 * adjustment of the weights, k or dense models on top of the dataset's settings. Nothing stored
 * changes; the answer says how each retriever ranked each hit and what it added.
 */
export async function hitTest(
  deps: RerankingSearchDeps,
  scope: SearchScope,
  query: string,
  limit: number,
  adjust?: SearchSettingsInput,
): Promise<HitTestResult> {
  const settings = await searchSettingsFor(deps.db, scope, adjust);
  const { hits, rerank } = await searchDataset(deps, scope, { query, limit }, settings);
  return {
    settings,
    wantedLanguage: languageWanted(query),
    rerank,
    hits: hits.map((r, i) => ({
      rank: i + 1,
      chunkId: r.chunkId,
      documentId: r.documentId,
      fileName: r.fileName,
      sectionPath: r.sectionPath,
      pages: r.pages,
      text: r.text,
      textTruncated: r.textTruncated,
      score: r.score,
      fusedScore: r.fusedScore,
      ...(r.rerankScore === undefined ? {} : { rerankScore: r.rerankScore }),
      ranks: Object.fromEntries(SEARCH_RETRIEVERS.map((name) => [name, r.ranks[name] ?? null])) as Record<
        SearchRetriever,
        number | null
      >,
      languageFactor: r.languageFactor,
    })),
  };
}

import type { DocumentMetadata } from '../contracts/documentMetadata';
import { fieldValuesOfDocuments } from '../db/repositories/documentFields';
import { hitTexts, parentPassages } from '../db/repositories/servedChunks';
import type { RerankerResolver } from '../rerank/rerankerResolver';
import type { SearchScope } from '../stores/ports';
import { searchedDatasets } from '../stores/searchScope';
import { highlightPattern, highlightsOf, type Highlight } from './highlights';
import {
  HIT_TEXT_MAX_CHARS,
  MAX_SEARCH_DEPTH,
  searchWithSettings,
  type SearchDeps,
  type SearchResult,
} from './hybridSearch';
import { RERANK_TEXT_MAX_CHARS, rerankHits, type RerankReport } from './rerankHits';
import type { SearchSettings } from './searchSettings';

/** What a page of search asks for beyond the query. */
export interface SearchRequest {
  query: string;
  limit: number;
  /** Hits before the page (from a cursor); 0 for the first page. */
  offset?: number;
  /** Hits scored below this are left out: the reranker's 0..1 score where it scored the hit, else the fused one. */
  minScore?: number;
  /** The parent passage of each hit, its matched terms, its document's metadata. */
  include?: { parent?: boolean; highlights?: boolean; metadata?: boolean };
}

/** A hit as search answers it: `score` is the reranker's where it scored the hit, else the fused one. */
export type RankedResult = SearchResult & {
  fusedScore: number;
  rerankScore?: number;
  metadata?: DocumentMetadata;
  highlights?: Highlight[];
  parent?: { chunkId: string; text: string; textTruncated: boolean } | null;
};

export interface SearchResponse {
  hits: RankedResult[];
  rerank: RerankReport;
  /** Where the next page starts; null when this page is the last (short, cut by minScore, or at MAX_SEARCH_DEPTH). */
  nextOffset: number | null;
}

export type RerankingSearchDeps = SearchDeps & { rerankers: RerankerResolver };

/**
 * The page as fused, or reordered by the user's reranker where the user has one and the dataset
 * does not turn it off: the first max(offset + limit, N) fused candidates are reranked (N: the
 * dataset's `rerankCandidates`, else SLUICE_RERANK_CANDIDATES) and the page is cut from them. A
 * reranker that fails or times out leaves the fused order, and the report says so.
 */
async function rankedPage(
  deps: RerankingSearchDeps,
  scope: SearchScope,
  request: SearchRequest,
  settings: SearchSettings,
): Promise<{ hits: RankedResult[]; rerank: RerankReport }> {
  const offset = request.offset ?? 0;
  const reranker = settings.rerank ? await deps.rerankers.forUser(scope.userId) : null;
  if (!reranker) {
    const hits = await searchWithSettings(deps, scope, request.query, request.limit, settings, { offset });
    return {
      hits: hits.map((hit) => ({ ...hit, fusedScore: hit.score })),
      rerank: { applied: false, reason: settings.rerank ? 'none configured' : 'off for the dataset' },
    };
  }
  const candidates = Math.min(
    MAX_SEARCH_DEPTH,
    Math.max(offset + request.limit, settings.rerankCandidates ?? deps.rerankers.candidates),
  );
  // The candidates' texts only as far as the reranker reads them; whole texts for the page alone.
  const fused = await searchWithSettings(deps, scope, request.query, candidates, settings, {
    textChars: RERANK_TEXT_MAX_CHARS,
  });
  const { hits, report } = await rerankHits(request.query, fused, reranker);
  const page = hits.slice(offset, offset + request.limit);
  const texts = await hitTexts(
    deps.db,
    { userId: scope.userId, datasetIds: searchedDatasets(scope) },
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

/**
 * A search as users get it: a page of the fused (or reranked) hits over the scope's datasets and
 * filter, cut at `minScore`, each with what the request includes. Runs the same for the search
 * route, `sluice search` and the hit test.
 */
export async function searchDataset(
  deps: RerankingSearchDeps,
  scope: SearchScope,
  request: SearchRequest,
  settings: SearchSettings,
): Promise<SearchResponse> {
  const offset = request.offset ?? 0;
  const { hits: page, rerank } = await rankedPage(deps, scope, request, settings);
  const kept = request.minScore === undefined ? page : page.filter((hit) => hit.score >= (request.minScore ?? 0));
  const include = request.include ?? {};
  const datasets = { userId: scope.userId, datasetIds: searchedDatasets(scope) };
  const ids = kept.map((hit) => hit.chunkId);
  const [parents, fields] = await Promise.all([
    include.parent ? parentPassages(deps.db, datasets, ids, HIT_TEXT_MAX_CHARS) : null,
    include.metadata
      ? fieldValuesOfDocuments(
          deps.db,
          scope.userId,
          kept.map((hit) => hit.documentId),
        )
      : null,
  ]);
  const pattern = include.highlights ? highlightPattern(request.query) : null;
  const hits = kept.map((hit): RankedResult => {
    const parent = parents?.get(hit.chunkId);
    return {
      ...hit,
      ...(fields ? { metadata: fields.get(hit.documentId)?.metadata ?? {} } : {}),
      ...(include.highlights ? { highlights: highlightsOf(hit.text, pattern) } : {}),
      ...(parents
        ? { parent: parent ? { chunkId: parent.chunkId, text: parent.text, textTruncated: parent.truncated } : null }
        : {}),
    };
  });
  const end = offset + request.limit;
  const more = page.length === request.limit && kept.length === page.length && end < MAX_SEARCH_DEPTH;
  return { hits, rerank, nextOffset: more ? end : null };
}

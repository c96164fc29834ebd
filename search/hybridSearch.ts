import type { Kysely } from 'kysely';
import type { SearchSettingsInput } from '../contracts/searchSettings';
import type { Database } from '../db/database';
import { findDatasetSettings } from '../db/repositories/datasetSettings';
import { hitTexts, servedChunks, type ServedChunk } from '../db/repositories/servedChunks';
import type { BgeEmbedders } from '../embedders/bgeEmbedder';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import { sparseQueryFromTokens } from '../sparse/sparseVector';
import type {
  EmbeddingModelRef,
  KeywordIndex,
  SearchHit,
  SearchScope,
  TenantScope,
  VectorStore,
} from '../stores/ports';
import { searchedDatasets } from '../stores/searchScope';
import { textLanguage } from '../tokenizer/textLanguage';
import { tokenize } from '../tokenizer/tokenize';
import { denseQueryText } from './denseQuery';
import { identifierTerms, isIdentifierQuery } from './identifierTerms';
import { LANGUAGE_SAMPLE_CHARS, languageOf, routeByLanguage } from './languageRouting';
import { reciprocalRankFusion } from './reciprocalRankFusion';
import {
  asks,
  DEFAULT_SEARCH_SETTINGS,
  forIdentifierQuery,
  fusionOf,
  resolveSearchSettings,
  type SearchSettings,
} from './searchSettings';

export type SearchDeps = {
  db: Kysely<Database>;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
  /** The second dense vector's models; null where SLUICE_LANGUAGE_DENSE is off (its list stays empty). */
  languageEmbedders: BgeEmbedders | null;
};

/**
 * Each retriever's ranked candidates for one query, before fusion (a type, so it is a Record of
 * lists). `passage` ranks the other lists' candidates by their best passage window (the second
 * dense vector's model).
 * `identifier` is the keyword index queried with the query's identifiers alone
 * (search/identifierTerms.ts), empty when it has none.
 */
export type RetrieverLists = {
  dense: SearchHit[];
  languageDense: SearchHit[];
  passage: SearchHit[];
  sparse: SearchHit[];
  keyword: SearchHit[];
  identifier: SearchHit[];
};

export interface SearchResult {
  chunkId: string;
  documentId: string;
  datasetId: string;
  fileName: string;
  sectionPath: string[];
  /** The first and last page the chunk's text spans; null where the document has no pages. */
  pages: { first: number; last: number } | null;
  /** The chunk's text, at most HIT_TEXT_MAX_CHARS characters. */
  text: string;
  /** The chunk holds more than HIT_TEXT_MAX_CHARS characters and `text` is their start. */
  textTruncated: boolean;
  score: number;
  /** The chunk's 1-based rank in each list that found it (a list without it is absent). */
  ranks: Record<string, number>;
  /** What language routing multiplied the fused score by: 1, or less for a hit in another language. */
  languageFactor: number;
}

/**
 * What a hit returns of its chunk's text at most. A child holds at most 16 characters a token
 * (chunker/charCap.ts), so this passes any child of up to 4,096 tokens whole; a search answers at
 * most 50 hits, so at most 3.3 MB of text whatever the chunks hold.
 */
export const HIT_TEXT_MAX_CHARS = 65_536;

/** Each retriever looks deeper than the final page, so fusion has candidates to reorder. */
const CANDIDATES_PER_RETRIEVER = 50;

/**
 * How deep a search may page: the hits before a page's end, fused from lists each at least that
 * deep. Bounds what one request asks of every store.
 */
export const MAX_SEARCH_DEPTH = 500;

const none = (): Promise<SearchHit[]> => Promise.resolve([]);

/**
 * The retrievers' candidates, each filtered by user and dataset; a list the settings leave out is
 * not asked (empty). Exported so the retrieval evaluation (eval/retrieval) measures exactly what
 * search fuses.
 */
export async function retrieveCandidates(
  deps: Pick<SearchDeps, 'vectors' | 'keywords' | 'embedders'> & Partial<Pick<SearchDeps, 'languageEmbedders'>>,
  scope: SearchScope,
  query: string,
  perRetriever = CANDIDATES_PER_RETRIEVER,
  settings: SearchSettings = DEFAULT_SEARCH_SETTINGS,
): Promise<RetrieverLists> {
  const tokens = tokenize(query);
  const dense = async (): Promise<SearchHit[]> => {
    // The query is embedded by the same user's model that embedded the chunks.
    const embedder = await deps.embedders.forUser(scope.userId);
    const [vector] = await embedder.embed([denseQueryText(query, tokens)]);
    if (!vector) return [];
    return deps.vectors.searchDense(
      scope,
      { model: embedder.model, dimension: embedder.dimension },
      vector,
      perRetriever,
    );
  };
  // The model of the query's language, over the chunks that model embedded and their passage
  // windows: a query crosses languages through the first dense vector only. Its own instruction,
  // not the bare terms; embedded once for both lists.
  let languageQuery: Promise<{ model: EmbeddingModelRef; vector: number[] } | null> | null = null;
  const embedLanguageQuery = (): Promise<{ model: EmbeddingModelRef; vector: number[] } | null> =>
    (languageQuery ??= (async () => {
      const embedder = deps.languageEmbedders?.of(textLanguage(query));
      if (!embedder) return null;
      return {
        model: { model: embedder.model, dimension: embedder.dimension },
        vector: await embedder.embedQuery(query),
      };
    })());
  const languageDense = async (): Promise<SearchHit[]> => {
    const q = await embedLanguageQuery();
    return q ? deps.vectors.searchLanguageDense(scope, q.model, q.vector, perRetriever) : [];
  };
  const identifiers = identifierTerms(query);
  const [denseHits, languageHits, sparse, keyword, identifier] = await Promise.all([
    asks(settings, 'dense') ? dense() : none(),
    asks(settings, 'languageDense') ? languageDense() : none(),
    asks(settings, 'sparse') ? deps.vectors.searchSparse(scope, sparseQueryFromTokens(tokens), perRetriever) : none(),
    asks(settings, 'keyword') ? deps.keywords.search(scope, tokens, perRetriever) : none(),
    asks(settings, 'identifier') && identifiers.length > 0
      ? deps.keywords.search(scope, identifiers, perRetriever)
      : none(),
  ]);
  // The passage windows of the other lists' candidates: every candidate scored by its best window,
  // read by chunk id. Measured in bench:search on 100,000 chunks, a search over every window (four
  // rows per chunk) took hybrid search from 86 to 131 ms p50; on the retrieval eval's held-out
  // families the restriction costs one question per language at recall@5 (docs/search.md).
  const candidates = new Set([denseHits, languageHits, sparse, keyword, identifier].flat().map((h) => h.chunkId));
  const passage = async (): Promise<SearchHit[]> => {
    const q = await embedLanguageQuery();
    if (!q || candidates.size === 0) return [];
    const scored = await deps.vectors.scorePassageWindows(scope, q.model, q.vector, [...candidates]);
    return scored.slice(0, perRetriever);
  };
  const passageHits = asks(settings, 'passage') ? await passage() : [];
  return { dense: denseHits, languageDense: languageHits, passage: passageHits, sparse, keyword, identifier };
}

/** The settings a search of the dataset runs with: the defaults, the dataset's own, then `adjust`. */
export async function searchSettingsFor(
  db: Kysely<Database>,
  scope: TenantScope,
  adjust?: SearchSettingsInput,
): Promise<SearchSettings> {
  const stored = await findDatasetSettings(db, scope);
  return resolveSearchSettings(stored.search, adjust);
}

/**
 * The lists with only the chunks search may return (servedChunks: documents not being deleted, in
 * the chunk set each serves), filtered before fusion so a chunk a rebuild staged or retired takes
 * no rank from a served one. Returns the rows of the chunks kept.
 */
async function keepServed(
  deps: Pick<SearchDeps, 'db'>,
  scope: SearchScope,
  lists: RetrieverLists,
): Promise<{ lists: RetrieverLists; rows: Map<string, ServedChunk>; dropped: boolean }> {
  const ids = new Set(Object.values(lists).flatMap((hits: SearchHit[]) => hits.map((h) => h.chunkId)));
  const rows = new Map(
    (
      await servedChunks(
        deps.db,
        { userId: scope.userId, datasetIds: searchedDatasets(scope) },
        [...ids],
        LANGUAGE_SAMPLE_CHARS,
      )
    ).map((r) => [r.chunk_id, r]),
  );
  const keep = (hits: SearchHit[]) => hits.filter((h) => rows.has(h.chunkId));
  return {
    lists: {
      dense: keep(lists.dense),
      languageDense: keep(lists.languageDense),
      passage: keep(lists.passage),
      sparse: keep(lists.sparse),
      keyword: keep(lists.keyword),
      identifier: keep(lists.identifier),
    },
    rows,
    dropped: rows.size < ids.size,
  };
}

/** Where a page of fused hits starts, and how much of each hit's text it reads. */
export interface PageOptions {
  /** Fused hits skipped before the page (a cursor's position); 0 by default. */
  offset?: number;
  /** Each hit's text is cut here: a reranker's candidates need less than a page's hits. */
  textChars?: number;
}

/**
 * The retrievers' lists over the chunks search serves, fused by weighted reciprocal rank under the
 * given settings; hits in another language than the one the query wants are then demoted
 * (search/languageRouting.ts). While a rebuild stages a document's new set beside its served one,
 * the stores hold both and each retriever's depth is shared between them: when the filter dropped
 * candidates from a full list, the retrievers are asked once more, twice as deep, so the served set
 * keeps its full depth. Every list is at least as deep as the page's end (offset + limit, at most
 * MAX_SEARCH_DEPTH), so a later page is cut from the same fused order as the first.
 */
export async function searchWithSettings(
  deps: SearchDeps,
  scope: SearchScope,
  query: string,
  limit: number,
  given: SearchSettings,
  options: PageOptions = {},
): Promise<SearchResult[]> {
  const offset = options.offset ?? 0;
  const depth = Math.max(CANDIDATES_PER_RETRIEVER, Math.min(MAX_SEARCH_DEPTH, offset + limit));
  const settings = isIdentifierQuery(query) ? forIdentifierQuery(given) : given;
  const first = await retrieveCandidates(deps, scope, query, depth, settings);
  let served = await keepServed(deps, scope, first);
  const full = Object.values(first).some((hits: SearchHit[]) => hits.length >= depth);
  if (served.dropped && full) {
    const deeper = await retrieveCandidates(deps, scope, query, 2 * depth, settings);
    served = await keepServed(deps, scope, deeper);
  }
  const fused = reciprocalRankFusion(served.lists, fusionOf(settings));
  const routed = routeByLanguage(
    fused,
    (hit) => {
      const text = served.rows.get(hit.chunkId)?.text_sample;
      return text === undefined ? null : languageOf(text);
    },
    query,
  );
  const page = routed.filter((hit) => served.rows.has(hit.chunkId)).slice(offset, offset + limit);
  // Whole texts are read for the page only, not for every candidate of every list.
  const texts = await hitTexts(
    deps.db,
    { userId: scope.userId, datasetIds: searchedDatasets(scope) },
    page.map((hit) => hit.chunkId),
    options.textChars ?? HIT_TEXT_MAX_CHARS,
  );
  const results: SearchResult[] = [];
  for (const hit of page) {
    const row = served.rows.get(hit.chunkId);
    const text = texts.get(hit.chunkId);
    if (!row || !text) continue;
    results.push({
      chunkId: hit.chunkId,
      documentId: row.document_id,
      datasetId: row.dataset_id,
      fileName: row.file_name,
      sectionPath: row.section_path,
      pages: row.page_first === null ? null : { first: row.page_first, last: row.page_last ?? row.page_first },
      text: text.text,
      textTruncated: text.truncated,
      score: hit.score,
      ranks: hit.ranks,
      languageFactor: hit.languageFactor,
    });
  }
  return results;
}

/** Hybrid search of a dataset with its own fusion settings (its `search` section) over the defaults. */
export async function hybridSearch(
  deps: SearchDeps,
  scope: TenantScope,
  query: string,
  limit = 10,
): Promise<SearchResult[]> {
  return searchWithSettings(deps, scope, query, limit, await searchSettingsFor(deps.db, scope));
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { servedChunks, type ServedChunk } from '../db/repositories/servedChunks';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import { sparseQueryFromTokens } from '../sparse/sparseVector';
import type { KeywordIndex, SearchHit, TenantScope, VectorStore } from '../stores/ports';
import { tokenize } from '../tokenizer/tokenize';
import { denseQueryText } from './denseQuery';
import { reciprocalRankFusion } from './reciprocalRankFusion';

export type SearchDeps = {
  db: Kysely<Database>;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
};

/** Each retriever's ranked candidates for one query, before fusion (a type, so it is a Record of lists). */
export type RetrieverLists = { dense: SearchHit[]; sparse: SearchHit[]; keyword: SearchHit[] };

export interface SearchResult {
  chunkId: string;
  documentId: string;
  fileName: string;
  sectionPath: string[];
  text: string;
  score: number;
  ranks: Record<string, number>;
}

/** Each retriever looks deeper than the final page, so fusion has candidates to reorder. */
const CANDIDATES_PER_RETRIEVER = 50;

/**
 * The three retrievers' candidates, each filtered by user and dataset. Exported so the retrieval
 * evaluation (eval/retrieval) measures exactly what search fuses.
 */
export async function retrieveCandidates(
  deps: Pick<SearchDeps, 'vectors' | 'keywords' | 'embedders'>,
  scope: TenantScope,
  query: string,
  perRetriever = CANDIDATES_PER_RETRIEVER,
): Promise<RetrieverLists> {
  const tokens = tokenize(query);
  // The query is embedded by the same user's model that embedded the chunks.
  const embedder = await deps.embedders.forUser(scope.userId);
  const [queryVector] = await embedder.embed([denseQueryText(query, tokens)]);
  const [dense, sparse, keyword] = await Promise.all([
    queryVector
      ? deps.vectors.searchDense(
          scope,
          { model: embedder.model, dimension: embedder.dimension },
          queryVector,
          perRetriever,
        )
      : Promise.resolve([]),
    deps.vectors.searchSparse(scope, sparseQueryFromTokens(tokens), perRetriever),
    deps.keywords.search(scope, tokens, perRetriever),
  ]);
  return { dense, sparse, keyword };
}

/**
 * The lists with only the chunks search may return (servedChunks: documents not being deleted, in
 * the chunk set each serves), filtered before fusion so a chunk a rebuild staged or retired takes
 * no rank from a served one. Returns the rows of the chunks kept.
 */
async function keepServed(
  deps: Pick<SearchDeps, 'db'>,
  scope: TenantScope,
  lists: RetrieverLists,
): Promise<{ lists: RetrieverLists; rows: Map<string, ServedChunk>; dropped: boolean }> {
  const ids = new Set([...lists.dense, ...lists.sparse, ...lists.keyword].map((h) => h.chunkId));
  const rows = new Map((await servedChunks(deps.db, scope, [...ids])).map((r) => [r.chunk_id, r]));
  const keep = (hits: SearchHit[]) => hits.filter((h) => rows.has(h.chunkId));
  return {
    lists: { dense: keep(lists.dense), sparse: keep(lists.sparse), keyword: keep(lists.keyword) },
    rows,
    dropped: rows.size < ids.size,
  };
}

/**
 * Dense + sparse + keyword retrieval, fused by weighted reciprocal rank (DEFAULT_FUSION), over the
 * chunks search serves. While a rebuild stages a document's new set beside its served one, the
 * stores hold both, and each retriever's depth is shared between them: when the filter dropped
 * candidates from a full list, the retrievers are asked once more, twice as deep, so the served
 * set keeps its full depth.
 */
export async function hybridSearch(
  deps: SearchDeps,
  scope: TenantScope,
  query: string,
  limit = 10,
): Promise<SearchResult[]> {
  const first = await retrieveCandidates(deps, scope, query);
  let served = await keepServed(deps, scope, first);
  const full = Object.values(first).some((hits: SearchHit[]) => hits.length >= CANDIDATES_PER_RETRIEVER);
  if (served.dropped && full)
    served = await keepServed(deps, scope, await retrieveCandidates(deps, scope, query, 2 * CANDIDATES_PER_RETRIEVER));
  const fused = reciprocalRankFusion(served.lists);
  const results: SearchResult[] = [];
  for (const hit of fused) {
    const row = served.rows.get(hit.chunkId);
    if (!row) continue;
    results.push({
      chunkId: hit.chunkId,
      documentId: row.document_id,
      fileName: row.file_name,
      sectionPath: row.section_path,
      text: row.text,
      score: hit.score,
      ranks: hit.ranks,
    });
    if (results.length >= limit) break;
  }
  return results;
}

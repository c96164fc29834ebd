import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import { sparseQueryFromTokens } from '../sparse/sparseVector';
import type { KeywordIndex, SearchHit, TenantScope, VectorStore } from '../stores/ports';
import { tokenize } from '../tokenizer/tokenize';
import { denseQueryText } from './denseQuery';
import { identifierTerms } from './identifierTerms';
import { languageOf, OTHER_LANGUAGE_FACTOR, preferLanguage, wantedLanguage } from './languageRouting';
import { reciprocalRankFusion } from './reciprocalRankFusion';

export type SearchDeps = {
  db: Kysely<Database>;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
};

/**
 * Each retriever's ranked candidates for one query, before fusion (a type, so it is a Record of
 * lists). `identifier` is the keyword index queried with the query's identifiers alone
 * (search/identifierTerms.ts), empty when it has none.
 */
export type RetrieverLists = { dense: SearchHit[]; sparse: SearchHit[]; keyword: SearchHit[]; identifier: SearchHit[] };

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
 * The retrievers' candidates, each filtered by user and dataset. Exported so the retrieval
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
  const identifiers = identifierTerms(query);
  const [dense, sparse, keyword, identifier] = await Promise.all([
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
    identifiers.length > 0 ? deps.keywords.search(scope, identifiers, perRetriever) : Promise.resolve([]),
  ]);
  return { dense, sparse, keyword, identifier };
}

/**
 * Dense + sparse + keyword (+ identifier) retrieval, fused by weighted reciprocal rank
 * (DEFAULT_FUSION); hits in another language than the one the query wants are then demoted
 * (search/languageRouting.ts). The final join drops chunks of documents that are being deleted.
 */
export async function hybridSearch(
  deps: SearchDeps,
  scope: TenantScope,
  query: string,
  limit = 10,
): Promise<SearchResult[]> {
  const fused = reciprocalRankFusion(await retrieveCandidates(deps, scope, query));
  if (fused.length === 0) return [];
  const rows = await deps.db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select(['chunks.chunk_id', 'chunks.document_id', 'chunks.section_path', 'chunks.text', 'documents.file_name'])
    .where(
      'chunks.chunk_id',
      'in',
      fused.map((f) => f.chunkId),
    )
    .where('chunks.user_id', '=', scope.userId)
    .where('chunks.dataset_id', '=', scope.datasetId)
    .where('documents.lifecycle', '=', 'ACTIVE')
    .execute();
  const byId = new Map(rows.map((r) => [r.chunk_id, r]));
  const routed = preferLanguage(
    fused,
    (hit) => {
      const text = byId.get(hit.chunkId)?.text;
      return text === undefined ? null : languageOf(text);
    },
    wantedLanguage(query),
    OTHER_LANGUAGE_FACTOR,
  );
  const results: SearchResult[] = [];
  for (const hit of routed) {
    const row = byId.get(hit.chunkId);
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

import type { Embedder } from '../../embedders/embedder';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { denseQueryText } from '../../search/denseQuery';
import { retrieveCandidates } from '../../search/hybridSearch';
import { identifierTerms } from '../../search/identifierTerms';
import type { KeywordIndex, SearchHit, TenantScope, VectorStore } from '../../stores/ports';
import { tokenize } from '../../tokenizer/tokenize';

/** Candidates per list: what hybridSearch takes from each retriever. */
export const DEPTH = 50;

/** Every list one question gets, by name (see LIST_NAMES in report order). */
export type QuestionLists = Record<string, SearchHit[]>;

export interface Retrievers {
  vectors: VectorStore;
  postgresKeywords: KeywordIndex;
  openSearchKeywords: KeywordIndex | null;
  /** name → embedder; the dense list of each is `dense:<name>`. */
  embedders: [string, Embedder][];
  /** Extra dense spaces searched with an embedder's query vector: `dense:<name>` → [embedder name, space]. */
  extraSpaces: [string, string, string][];
}

/**
 * One question's lists. The base lists come from `retrieveCandidates` (search/hybridSearch.ts),
 * so the eval measures what search fuses; the others (the production keyword index, the
 * identifier list, a lever's dense space) are the same store calls with the same query.
 */
export async function retrieveLists(r: Retrievers, scope: TenantScope, question: string): Promise<QuestionLists> {
  const lists: QuestionLists = {};
  const queryVectors = new Map<string, number[]>();
  for (const [name, embedder] of r.embedders) {
    const base = await retrieveCandidates(
      { vectors: r.vectors, keywords: r.postgresKeywords, embedders: singleEmbedderResolver(embedder) },
      scope,
      question,
      DEPTH,
    );
    lists[`dense:${name}`] = base.dense;
    lists.sparse = base.sparse;
    lists['keyword:postgres'] = base.keyword;
    const [vector] = await embedder.embed([denseQueryText(question)]);
    if (vector) queryVectors.set(name, vector);
  }
  for (const [list, embedderName, space] of r.extraSpaces) {
    const vector = queryVectors.get(embedderName);
    const embedder = r.embedders.find(([n]) => n === embedderName)?.[1];
    lists[list] =
      vector && embedder
        ? await r.vectors.searchDense(scope, { model: space, dimension: embedder.dimension }, vector, DEPTH)
        : [];
  }
  const tokens = tokenize(question);
  if (r.openSearchKeywords) lists['keyword:opensearch'] = await r.openSearchKeywords.search(scope, tokens, DEPTH);
  const identifiers = identifierTerms(question);
  lists['identifier:postgres'] =
    identifiers.length > 0 ? await r.postgresKeywords.search(scope, identifiers, DEPTH) : [];
  if (r.openSearchKeywords)
    lists['identifier:opensearch'] =
      identifiers.length > 0 ? await r.openSearchKeywords.search(scope, identifiers, DEPTH) : [];
  return lists;
}

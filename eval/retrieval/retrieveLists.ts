import type { BgeEmbedders } from '../../embedders/bgeEmbedder';
import type { Embedder } from '../../embedders/embedder';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { denseQueryText } from '../../search/denseQuery';
import { retrieveCandidates } from '../../search/hybridSearch';
import { DEFAULT_SEARCH_SETTINGS } from '../../search/searchSettings';
import { identifierTerms } from '../../search/identifierTerms';
import type { KeywordIndex, SearchHit, TenantScope, VectorStore } from '../../stores/ports';
import { textLanguage } from '../../tokenizer/textLanguage';
import { tokenize } from '../../tokenizer/tokenize';

/** Candidates per list: what hybridSearch takes from each retriever. */
export const DEPTH = 50;

/** Every list one question gets, by name. */
export type QuestionLists = Record<string, SearchHit[]>;

/**
 * The base lists of one question with one embedder, from `retrieveCandidates`
 * (search/hybridSearch.ts), so the eval measures what search fuses: `dense:<name>`, and the
 * sparse and Postgres keyword lists (the same whatever the embedder).
 */
export async function baseLists(
  stores: { vectors: VectorStore; postgresKeywords: KeywordIndex },
  embedder: [string, Embedder],
  scope: TenantScope,
  question: string,
): Promise<QuestionLists> {
  const [name, e] = embedder;
  const lists = await retrieveCandidates(
    { vectors: stores.vectors, keywords: stores.postgresKeywords, embedders: singleEmbedderResolver(e) },
    scope,
    question,
    DEPTH,
  );
  return { [`dense:${name}`]: lists.dense, sparse: lists.sparse, 'keyword:postgres': lists.keyword };
}

/**
 * The second dense list from `retrieveCandidates` alone: the bge model of the question's language
 * over the chunks that model embedded (`dense:bge`).
 */
export async function languageDenseList(
  vectors: VectorStore,
  keywords: KeywordIndex,
  languageEmbedders: BgeEmbedders,
  anyEmbedder: Embedder,
  scope: TenantScope,
  question: string,
): Promise<QuestionLists> {
  const onlyLanguageDense = {
    ...DEFAULT_SEARCH_SETTINGS,
    weights: {
      ...DEFAULT_SEARCH_SETTINGS.weights,
      dense: 0,
      sparse: 0,
      keyword: 0,
      identifier: 0,
      languageDense: 1,
      passage: 0,
    },
    denseModels: ['language' as const],
  };
  const lists = await retrieveCandidates(
    { vectors, keywords, embedders: singleEmbedderResolver(anyEmbedder), languageEmbedders },
    scope,
    question,
    DEPTH,
    onlyLanguageDense,
  );
  return { 'dense:bge': lists.languageDense };
}

/** A lever's dense space searched with the embedder's query vector (the query itself is unchanged). */
export async function spaceList(
  vectors: VectorStore,
  embedder: Embedder,
  space: string,
  scope: TenantScope,
  question: string,
): Promise<SearchHit[]> {
  const [vector] = await embedder.embed([denseQueryText(question)]);
  return vector ? vectors.searchDense(scope, { model: space, dimension: embedder.dimension }, vector, DEPTH) : [];
}

/**
 * The lists that need no embedder: the production keyword index (OpenSearch BM25) on the same
 * query terms, and the identifier-aware keyword query (search/identifierTerms.ts) on both indexes.
 */
export async function lexicalExtras(
  stores: { postgresKeywords: KeywordIndex; openSearchKeywords: KeywordIndex | null },
  scope: TenantScope,
  question: string,
): Promise<QuestionLists> {
  const lists: QuestionLists = {};
  const identifiers = identifierTerms(question);
  const os = stores.openSearchKeywords;
  lists['identifier:postgres'] =
    identifiers.length > 0 ? await stores.postgresKeywords.search(scope, identifiers, DEPTH) : [];
  if (os) {
    lists['keyword:opensearch'] = await os.search(scope, tokenize(question), DEPTH);
    lists['identifier:opensearch'] = identifiers.length > 0 ? await os.search(scope, identifiers, DEPTH) : [];
  }
  return lists;
}

/**
 * The passage windows' list as search builds it (search/hybridSearch.ts): the candidates of
 * `candidateLists` (the other lists search fuses), each scored by its best window of the question's
 * language's bge model.
 */
export async function passageList(
  vectors: VectorStore,
  languageEmbedders: BgeEmbedders,
  scope: TenantScope,
  question: string,
  lists: QuestionLists,
  candidateLists: readonly string[],
): Promise<QuestionLists> {
  const embedder = languageEmbedders.of(textLanguage(question));
  const candidates = new Set(candidateLists.flatMap((name) => (lists[name] ?? []).map((h) => h.chunkId)));
  const vector = await embedder.embedQuery(question);
  const scored = await vectors.scorePassageWindows(
    scope,
    { model: embedder.model, dimension: embedder.dimension },
    vector,
    [...candidates],
  );
  return { 'dense:window': scored.slice(0, DEPTH) };
}

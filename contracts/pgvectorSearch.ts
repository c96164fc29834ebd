/**
 * pgvector's `hnsw.ef_search` for every dense search on Postgres (SLUICE_PGVECTOR_EF_SEARCH): the
 * candidates the graph walk keeps. pgvector's own default is 40; this is what bench:dense-recall
 * chose on real embeddings: the least of 40, 100, 200, 400 and 800 whose recall@10 against the
 * exact scan reached 0.98 (docs/search.md).
 */
export const DEFAULT_EF_SEARCH = 400;

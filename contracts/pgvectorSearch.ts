/**
 * pgvector's `hnsw.ef_search` for every dense search on Postgres (SLUICE_PGVECTOR_EF_SEARCH): the
 * candidates the graph walk keeps. pgvector's own default is 40; this is what bench:dense-recall
 * chose on real embeddings (docs/search.md).
 */
export const DEFAULT_EF_SEARCH = 100;

import type { Kysely } from 'kysely';
import { ConfigError, loadConfigWith, type SluiceConfig } from '../../config/config';
import type { Database } from '../../db/database';
import { createOpenSearchKeywordIndex, type OpenSearchKeywordIndex } from '../../stores/openSearchKeywordIndex';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import type { KeywordIndex, VectorStore } from '../../stores/ports';
import { withMemoryDense } from './memoryDenseStore';

/** The eval's own OpenSearch index, beside the application's (its name is fixed, like the database's). */
export const EVAL_OPENSEARCH_INDEX = 'sluice-eval-retrieval';

export interface EvalStores {
  vectors: VectorStore;
  postgresKeywords: KeywordIndex;
  openSearchKeywords: OpenSearchKeywordIndex | null;
}

/**
 * The local profile's stores in the eval's database, and the production profile's keyword index
 * (OpenSearch BM25) when the environment names an OpenSearch node (`scripts/stack.sh env` does);
 * null without one, and the report then leaves the production rows out.
 */
export function openEvalStores(db: Kysely<Database>): EvalStores {
  let openSearch: OpenSearchKeywordIndex | null = null;
  let config: Readonly<SluiceConfig> | null = null;
  try {
    config = loadConfigWith({ SLUICE_KEYWORD_INDEX: 'opensearch', OPENSEARCH_INDEX: EVAL_OPENSEARCH_INDEX });
  } catch (error) {
    // Only a missing OPENSEARCH_URL means "no production index here"; any other problem is real.
    if (!(error instanceof ConfigError) || !error.message.includes('OPENSEARCH_URL')) throw error;
  }
  const c = config?.stores.keywordIndex;
  if (c?.kind === 'opensearch')
    openSearch = createOpenSearchKeywordIndex({
      node: c.url,
      index: c.index,
      username: c.username,
      password: c.password,
    });
  return {
    vectors: withMemoryDense(createPostgresVectorStore(db)),
    postgresKeywords: createPostgresKeywordIndex(db),
    openSearchKeywords: openSearch,
  };
}

import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { createDb } from '../db/connection';
import type { Database } from '../db/database';
import type { Embedder } from '../embedders/embedder';
import { createLocalHashEmbedder } from '../embedders/localHashEmbedder';
import { createLocalObjectStore } from '../stores/localObjectStore';
import { createPostgresKeywordIndex } from '../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import type { KeywordIndex, ObjectStore, VectorStore } from '../stores/ports';

/** The store adapters chosen by config; shared by the worker, the CLI and the API. */
export interface Adapters {
  db: Kysely<Database>;
  objects: ObjectStore;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedder: Embedder;
  close(): Promise<void>;
}

export function createAdapters(config: Readonly<SluiceConfig>): Adapters {
  const db = createDb(config.database.url, config.database.poolSize);
  return {
    db,
    objects: createLocalObjectStore(config.objectsDir),
    vectors: createPostgresVectorStore(db),
    keywords: createPostgresKeywordIndex(db),
    embedder: createLocalHashEmbedder({ dimension: config.embedding.dimension }),
    close: () => db.destroy(),
  };
}

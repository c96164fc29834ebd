import type { Kysely } from 'kysely';
import type { CpuPool } from '../cpuPool/pool';
import type { Database } from '../db/database';
import type { BgeEmbedders } from '../embedders/bgeEmbedder';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import type { KeywordIndex, ObjectStore, VectorStore } from '../stores/ports';
import type { Notifier } from '../stores/notifier';
import type { IngestionRuns } from './ingestionRuns';

/** Everything the activities touch, handed in by the worker (the only composition root). */
export interface ActivityDeps {
  db: Kysely<Database>;
  objects: ObjectStore;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
  /** The second dense vector's models, by language; null when it is off (SLUICE_LANGUAGE_DENSE). */
  languageEmbedders: BgeEmbedders | null;
  notifier: Notifier;
  runs: IngestionRuns;
  /** Warm threads for the CPU work over user content (parse, chunk, tokenize, sparse), under its limits. */
  cpu: CpuPool;
  settings: {
    tmpDir: string;
    maxFileBytes: number;
    embedBatchSize: number;
    chunking: { maxTokens: number; overlapTokens: number; maxChunks?: number };
    localStages: { maxSourceBytes: number; maxChunks: number };
    /** Per-user limits a run started from a named source is registered under, as an upload is. */
    quota: { maxBytes: number; maxDocuments: number };
    /** The S3 bucket of the object store (the one `s3://` sources may name); null for the local store. */
    objectBucket: string | null;
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { ParseLimits } from '../parsers/parseLimits';
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
  notifier: Notifier;
  runs: IngestionRuns;
  settings: {
    tmpDir: string;
    maxFileBytes: number;
    /** Per-document parse limits (parsers/parseLimits.ts). */
    parsing: ParseLimits;
    embedBatchSize: number;
    chunking: { maxTokens: number; overlapTokens: number };
    localStages: { maxSourceBytes: number; maxChunks: number };
  };
}

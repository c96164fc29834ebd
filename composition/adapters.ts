import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { createDb, describePoolError } from '../db/connection';
import type { Database } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { singleEmbedderResolver, type EmbedderResolver } from '../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../embedders/localHashEmbedder';
import { createLocalModelEmbedder } from '../embedders/localModelEmbedder';
import { createBgeEmbedders, type BgeEmbedders } from '../embedders/bgeEmbedder';
import { languageDenseEnabled } from '../embedders/bgeModelFiles';
import { parseEncryptionKey } from '../crypto/secretBox';
import { createUserEmbedderResolver } from '../embedders/userEmbedderResolver';
import { createLocalObjectStore } from '../stores/localObjectStore';
import { createOpenSearchKeywordIndex } from '../stores/openSearchKeywordIndex';
import { createPostgresKeywordIndex } from '../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import type { KeywordIndex, ObjectStore, VectorStore } from '../stores/ports';
import { createQdrantVectorStore } from '../stores/qdrantVectorStore';
import { createS3ObjectStore } from '../stores/s3ObjectStore';
import { readPemFile } from '../crypto/pemFile';
import { openingKeysOf } from '../crypto/sealingSecret';
import { createRerankerResolver, type RerankerResolver } from '../rerank/rerankerResolver';

/**
 * The composition root of every process: config → adapters here, then the worker builds the
 * activities on them (composition/activityDeps.ts), the API its routes, the CLI its commands.
 * The store adapters chosen by config; shared by the worker, the CLI and the API.
 */
export interface Adapters {
  db: Kysely<Database>;
  objects: ObjectStore;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
  /** The second dense vector's models (bge-small en/zh), or null when SLUICE_LANGUAGE_DENSE is off. */
  languageEmbedders: BgeEmbedders | null;
  /** Each user's reranker (`sluice model set rerank`), read at each search. */
  rerankers: RerankerResolver;
  /** Creates what the chosen stores need (bucket, collection, index) if missing; idempotent. */
  ensureReady(): Promise<void>;
  close(): Promise<void>;
}

type Ensurable = {
  ensureBucket?: () => Promise<void>;
  ensureCollection?: () => Promise<void>;
  ensureIndex?: () => Promise<void>;
};

function objectStoreFor(config: Readonly<SluiceConfig>): ObjectStore & Ensurable {
  const c = config.stores.objectStore;
  if (c.kind === 'local') return createLocalObjectStore(config.objectsDir);
  return createS3ObjectStore({
    endpoint: c.endpoint,
    region: c.region,
    bucket: c.bucket,
    ...(c.credentials ?? {}),
    forcePathStyle: c.forcePathStyle,
  });
}

function vectorStoreFor(config: Readonly<SluiceConfig>, db: Kysely<Database>): VectorStore & Ensurable {
  const c = config.stores.vectorStore;
  if (c.kind === 'postgres') return createPostgresVectorStore(db, { efSearch: c.efSearch });
  // No dimension here: each model's collection takes the dimension of the model that first writes to it.
  return createQdrantVectorStore({ url: c.url, apiKey: c.apiKey, collection: c.collection });
}

function keywordIndexFor(
  config: Readonly<SluiceConfig>,
  db: Kysely<Database>,
): KeywordIndex & { close?: () => Promise<void> } {
  const c = config.stores.keywordIndex;
  if (c.kind === 'postgres') return createPostgresKeywordIndex(db);
  return createOpenSearchKeywordIndex({
    node: c.url,
    index: c.index,
    username: c.username,
    password: c.password,
    ca: c.caFile === undefined ? undefined : readPemFile(c.caFile, 'OPENSEARCH_CA_FILE'),
    awsSigv4: c.awsSigv4 ?? undefined,
  });
}

function embeddersFor(
  config: Readonly<SluiceConfig>,
  db: Kysely<Database>,
): EmbedderResolver & { close?: () => Promise<void> } {
  const c = config.stores.embedder;
  if (c.kind === 'local')
    return singleEmbedderResolver(createLocalHashEmbedder({ dimension: config.embedding.dimension }));
  if (c.kind === 'local-model') {
    const { dir, threads, maxTokens } = config.embedding.localModel;
    // Throws at start-up, naming `bash scripts/stack.sh start`, when the model is not installed.
    const model = createLocalModelEmbedder({ modelDir: dir, threads, maxTokens });
    return { ...singleEmbedderResolver(model), close: () => model.close() };
  }
  return createUserEmbedderResolver({
    db,
    encryptionKey: [c.secretKey, config.secrets.previousKey].flatMap((k) => (k ? [parseEncryptionKey(k)] : [])),
    environmentDefault: config.embedding.environmentDefault,
    fallback: null,
    outbound: config.outbound,
  });
}

/** Where a process logs a dependency's trouble that no request or activity sees (the worker: its Runtime logger). */
export type DependencyLog = (message: string) => void;

/** What a reranker's answer may take: 200 scores are a few kilobytes; a wrong endpoint's page is cut here. */
const RERANK_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * A Postgres restart or failover breaks the pool's connections: the process logs it (SQLSTATE and
 * message only, never the URL) and carries on; the queries that fail meanwhile are retried by
 * their activity or answered 503 by the API (stores/dependencyUnavailable.ts).
 */
export function createAdapters(config: Readonly<SluiceConfig>, log: DependencyLog = console.warn): Adapters {
  const db = createDb(config.database.url, config.database.poolSize, (error) =>
    log(`postgres: a pooled connection failed (${describePoolError(error)}); it is dropped and replaced`),
  );
  const keywords = keywordIndexFor(config, db);
  const objects = objectStoreFor(config);
  const vectors = vectorStoreFor(config, db);
  const embedders = embeddersFor(config, db);
  const { dir, threads, maxTokens } = config.embedding.localModel;
  // With `on`, throws at start-up, naming `bash scripts/stack.sh start`, when the models are not installed.
  const languageDense = languageDenseEnabled(config.embedding.languageDense, dir);
  if (config.embedding.languageDense === 'auto' && !languageDense) {
    log(`second dense vector: off, its bge models are not installed in ${dir} (SLUICE_LANGUAGE_DENSE=auto)`);
  }
  const languageEmbedders = languageDense ? createBgeEmbedders({ modelDir: dir, threads, maxTokens }) : null;
  const rerankers = createRerankerResolver({
    db,
    keys: () => openingKeysOf(config),
    call: {
      outbound: config.outbound,
      timeoutMs: config.search.rerankTimeoutMs,
      maxResponseBytes: RERANK_MAX_RESPONSE_BYTES,
    },
    candidates: config.search.rerankCandidates,
  });
  return {
    db,
    objects,
    vectors,
    keywords,
    embedders,
    languageEmbedders,
    rerankers,
    async ensureReady() {
      await objects.ensureBucket?.();
      await vectors.ensureCollection?.();
      await keywords.ensureIndex();
    },
    async close() {
      await embedders.close?.();
      await languageEmbedders?.close();
      await keywords.close?.();
      await db.destroy();
    },
  };
}

/**
 * The adapters of a process that is about to use them: the schema migrated and the stores'
 * bucket, collection and index created if missing. Closed again if either step fails.
 */
export async function openAdapters(config: Readonly<SluiceConfig>): Promise<Adapters> {
  const adapters = createAdapters(config);
  try {
    await prepareAdapters(adapters);
    return adapters;
  } catch (error) {
    await adapters.close();
    throw error;
  }
}

/** openAdapters' steps on adapters already created: the schema migrated, the stores ensured. */
export async function prepareAdapters(adapters: Adapters): Promise<void> {
  await migrateToLatest(adapters.db);
  await adapters.ensureReady();
}

import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LOCAL_MODEL } from '../embedders/localModelFiles';
import { packageRoot } from './packageRoot';
import { parseEncryptionKey } from '../crypto/secretBox';
import { resolveStores, storesEnvSchema, type StoresConfig } from './storesConfig';
import { withStackPortDefaults } from './stackPorts';
import { resolveTemporal, temporalEnvSchema, type TemporalConfig } from './temporalConfig';

const repoRoot = packageRoot();

const durationPattern = /^(\d+)(ms|s|m|h|d)$/;

const baseEnvSchema = z.object({
  SLUICE_TASK_QUEUE: z.string().min(1).default('sluice-ingest'),
  TEMPORAL_UI_URL: z.url().default('http://127.0.0.1:8233'),
  // The stack script's ports (config/stackPorts.ts): checked here so a typo fails fast.
  SLUICE_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SLUICE_TEMPORAL_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SLUICE_TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
    .default('postgres://postgres@127.0.0.1:54329/sluice'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SLUICE_DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.sluice')),
  SLUICE_OBJECTS_DIR: z.string().min(1).optional(),
  SLUICE_TMP_DIR: z.string().min(1).optional(),
  SLUICE_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  SLUICE_PARSE_TIMEOUT: z.string().regex(durationPattern, 'must look like 10m, 90s or 500ms').default('10m'),
  SLUICE_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  SLUICE_PARSE_HEAP_MB: z.coerce.number().int().min(64).max(16384).default(1024),
  SLUICE_EMBED_DIMENSION: z.coerce.number().int().min(8).max(4096).optional(),
  SLUICE_MODEL_DIR: z.string().min(1).optional(),
  SLUICE_MODEL_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  SLUICE_MODEL_MAX_TOKENS: z.coerce.number().int().min(16).max(4096).default(512),
  SLUICE_EMBED_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  SLUICE_CHUNK_MAX_TOKENS: z.coerce.number().int().min(16).max(8192).default(400),
  SLUICE_CHUNK_OVERLAP_TOKENS: z.coerce.number().int().min(0).max(4096).default(60),
  SLUICE_RETRY_WAIT: z.string().regex(durationPattern, 'must look like 30d, 12h, 90s or 500ms').default('30d'),
  SLUICE_WEBHOOK_URL: z.url().optional(),
  SLUICE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SLUICE_STUCK_AFTER: z.string().regex(durationPattern, 'must look like 30d, 12h, 90s or 500ms').default('15m'),
  SLUICE_SWEEP_EVERY: z
    .union([z.literal('off'), z.string().regex(durationPattern, "must be 'off' or look like 5m")])
    .default('5m'),
  SLUICE_ORPHAN_SWEEP_EVERY: z
    .union([z.literal('off'), z.string().regex(durationPattern, "must be 'off' or look like 1h")])
    .default('1h'),
  SLUICE_ORPHAN_GRACE: z.string().regex(durationPattern, 'must look like 1h or 90m').default('1h'),
  SLUICE_USER_ID: z.string().min(1).default('local'),
  SLUICE_LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  SLUICE_API_HOST: z.string().min(1).default('127.0.0.1'),
  SLUICE_API_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SLUICE_API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(64 * 1024),
  SLUICE_API_MAX_HEADER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(256 * 1024)
    .default(16 * 1024),
  SLUICE_API_BATCH_MAX_FILES: z.coerce.number().int().min(1).max(1000).default(20),
  SLUICE_API_SSE_POLL: z.string().regex(durationPattern, 'must look like 500ms or 2s').default('500ms'),
  SLUICE_API_MAX_STREAMS_PER_KEY: z.coerce.number().int().min(1).max(10_000).default(8),
  SLUICE_API_REQUEST_TIMEOUT: z.string().regex(durationPattern, 'must look like 30m or 90s').optional(),
  SLUICE_API_IDLE_TIMEOUT: z.string().regex(durationPattern, 'must look like 60s or 2m').default('60s'),
  SLUICE_API_TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*)$/,
      "must be 'true', 'false' or a comma-separated list of proxy addresses/CIDRs",
    )
    .optional(),
  SLUICE_ADMIN_SESSION_TTL: z.string().regex(durationPattern, 'must look like 12h or 30m').default('12h'),
  SLUICE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SLUICE_OUTBOUND_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
  SLUICE_USER_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024 * 1024),
  SLUICE_USER_QUOTA_DOCUMENTS: z.coerce.number().int().positive().default(10_000),
  SLUICE_WORKER_METRICS_BIND: z
    .string()
    .regex(/^[^\s:]+:\d{1,5}$/, 'must look like 127.0.0.1:9464')
    .optional(),
  SLUICE_WORKER_METRICS_URL: z.url().optional(),
  SLUICE_WORKER_ACTIVITY_SLOTS: z.coerce.number().int().min(1).max(1000).default(8),
  SLUICE_WORKER_WORKFLOW_SLOTS: z.coerce.number().int().min(2).max(1000).default(20),
  SLUICE_EMBED_ACTIVITY_SLOTS: z.coerce.number().int().min(1).max(1000).default(4),
  SLUICE_EMBED_ACTIVITIES_PER_SECOND: z.coerce.number().min(0).default(20),
  SLUICE_WORKER_QUEUES: z.enum(['all', 'ingest', 'embedding']).default('all'),
  SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024),
  SLUICE_LOCAL_STAGE_MAX_CHUNKS: z.coerce.number().int().min(0).default(500),
  SLUICE_CPU_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  SLUICE_DEFAULT_EMBEDDING_BASE_URL: z.url().optional(),
  SLUICE_DEFAULT_EMBEDDING_MODEL: z.string().min(1).optional(),
  SLUICE_DEFAULT_EMBEDDING_DIMENSION: z.coerce.number().int().min(1).max(65536).optional(),
  SLUICE_DEFAULT_EMBEDDING_API_KEY: z.string().min(1).optional(),
});

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function durationMs(value: string): number {
  const [, amount, unit] = durationPattern.exec(value) ?? [];
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

const envSchema = baseEnvSchema.extend(storesEnvSchema.shape).extend(temporalEnvSchema.shape);

/** Slow but honest: a whole upload of the largest allowed file at 128 KiB/s, and never under 5 minutes. */
function defaultRequestTimeoutMs(maxFileBytes: number): number {
  return Math.max(5 * 60_000, Math.ceil(maxFileBytes / (128 * 1024)) * 1000);
}

function trustProxyOf(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',');
}

/** The local model's vectors have its fixed size; every other embedder takes the setting (default 256). */
function embedDimension(value: number | undefined, stores: StoresConfig, problems: string[]): number {
  if (stores.embedder.kind !== 'local-model') return value ?? 256;
  if (value !== undefined && value !== LOCAL_MODEL.dimension) {
    problems.push(
      `SLUICE_EMBED_DIMENSION: the local model ${LOCAL_MODEL.name} makes ${LOCAL_MODEL.dimension}-dimensional vectors; unset it, or choose SLUICE_EMBEDDER=local`,
    );
  }
  return LOCAL_MODEL.dimension;
}

export type EnvInput = Record<string, string | undefined>;

/**
 * The operator's OpenAI-compatible provider for users with no embedding config of their own and no
 * deployment default stored with `sluice embedding set --default` (SLUICE_DEFAULT_EMBEDDING_*).
 */
export interface EnvironmentEmbeddingDefault {
  baseUrl: string;
  model: string;
  dimension: number;
  apiKey: string | null;
}

function environmentEmbeddingDefault(
  e: z.output<typeof baseEnvSchema>,
  problems: string[],
): EnvironmentEmbeddingDefault | null {
  const {
    SLUICE_DEFAULT_EMBEDDING_BASE_URL: baseUrl,
    SLUICE_DEFAULT_EMBEDDING_MODEL: model,
    SLUICE_DEFAULT_EMBEDDING_DIMENSION: dimension,
  } = e;
  if (baseUrl === undefined && model === undefined && dimension === undefined) {
    if (e.SLUICE_DEFAULT_EMBEDDING_API_KEY !== undefined)
      problems.push(
        'SLUICE_DEFAULT_EMBEDDING_API_KEY: set SLUICE_DEFAULT_EMBEDDING_BASE_URL, _MODEL and _DIMENSION with it',
      );
    return null;
  }
  if (baseUrl === undefined || model === undefined || dimension === undefined) {
    problems.push('SLUICE_DEFAULT_EMBEDDING_BASE_URL, _MODEL and _DIMENSION: set all three, or none');
    return null;
  }
  return { baseUrl, model, dimension, apiKey: e.SLUICE_DEFAULT_EMBEDDING_API_KEY ?? null };
}

/**
 * A secret the operator names at run time (`sluice embedding set --api-key-env NAME`): read here
 * because only this module reads the environment.
 */
export function secretFromEnvironment(name: string, env: EnvInput = process.env): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export interface SluiceConfig {
  temporal: TemporalConfig & { taskQueue: string; uiUrl: string };
  database: { url: string; poolSize: number };
  dataDir: string;
  objectsDir: string;
  tmpDir: string;
  maxFileBytes: number;
  /** Per-document parse limits: wall clock, zip-bomb guard, parse-thread heap. */
  parsing: { timeoutMs: number; maxUncompressedBytes: number; maxHeapMb: number };
  /**
   * `dimension`: of the hashing embedder and the Qdrant collection; the local model fixes it at
   * its own (512). `localModel`: where the stack installed the model, its threads and token limit.
   */
  embedding: {
    dimension: number;
    batchSize: number;
    localModel: { dir: string; threads: number; maxTokens: number };
    environmentDefault: EnvironmentEmbeddingDefault | null;
  };
  chunking: { maxTokens: number; overlapTokens: number };
  /** How long a failed run waits for a `retry` before it closes (a Temporal duration string). */
  retryWait: string;
  /** Result webhook; absent → results are logged. The secret signs bodies and is never logged. */
  webhook: { url: string; secret: string } | null;
  /** A PROCESSING task untouched this long, whose run is gone, is swept to INTERRUPTED_TASK. */
  stuckAfterMs: number;
  /** How often the stuck-task sweep schedule fires; null disables it (test workers). */
  sweepEveryMs: number | null;
  /**
   * The orphan sweep (objects no document row refers to, abandoned partial writes): how often its
   * schedule fires (null: off) and how old what it removes must be. The grace must exceed the
   * longest upload (the API's request timeout): an S3 multipart upload is dated from its start.
   */
  orphanSweep: { everyMs: number | null; graceMs: number };
  defaultUserId: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Adapter per port and their settings. Holds secrets: never log the config. */
  stores: StoresConfig;
  /** The HTTP API (client/http): where it listens and what it accepts. Uploads are capped by `maxFileBytes`. */
  api: {
    host: string;
    port: number;
    /** Largest non-upload request body (JSON). */
    bodyLimitBytes: number;
    /** Largest request header block; beyond it Node answers 431. */
    maxHeaderBytes: number;
    batchMaxFiles: number;
    /** How often an SSE stream polls the workflow's `progress` query. */
    ssePollMs: number;
    /** Open SSE streams per API key (each polls Postgres and Temporal); beyond it 429. */
    maxStreamsPerKey: number;
    /** Longest time to receive one whole request, body included (Node's requestTimeout). */
    requestTimeoutMs: number;
    /** A connection silent this long is closed (socket inactivity; SSE streams send keep-alives). */
    idleTimeoutMs: number;
    /** Fastify's trustProxy: whose X-Forwarded-Proto/-For to believe (true: any; a list: those addresses/CIDRs). */
    trustProxy: boolean | string[];
    /** Lifetime of an admin-page session cookie. */
    sessionTtlMs: number;
    /** Signs admin session cookies (from SLUICE_SECRET_KEY); null → a random secret per process. */
    sessionSecret: string | null;
  };
  /** Per-user limits on what the API accepts: stored bytes and documents (ACTIVE ones). */
  quota: { maxBytes: number; maxDocuments: number };
  metrics: {
    /** The worker's Temporal Runtime serves Prometheus metrics here (host:port); null → off. */
    workerBindAddress: string | null;
    /** The API's /metrics appends what it scrapes from here (the worker's endpoint); null → off. */
    workerUrl: string | null;
    /** /metrics answers only `Authorization: Bearer <token>`; null → /metrics is off. */
    token: string | null;
  };
  /**
   * Outbound HTTP to addresses users choose (embedding providers, the webhook): private,
   * loopback and link-local addresses are refused unless allowed (default: allowed on the local
   * profile only).
   */
  outbound: { allowPrivate: boolean };
  /** Concurrency of one worker process (worker/createWorker.ts). */
  worker: {
    /**
     * Which task queues this process polls: both, the main one only (workflows and every stage
     * but VECTORIZING) or the embedding one only, so each can be scaled on its own.
     */
    queues: 'all' | 'ingest' | 'embedding';
    /** Activities the main task queue's worker runs at once (every stage but VECTORIZING). */
    activitySlots: number;
    workflowSlots: number;
    /** VECTORIZING runs on a task queue of its own, so a slow provider holds only these slots. */
    embedding: {
      activitySlots: number;
      /** Server-side cap on VECTORIZING starts per second over all workers; null → none. */
      activitiesPerSecond: number | null;
    };
    /**
     * Short stages of small documents run as local activities (contracts/ingest.ts LocalStagePlan):
     * no activity task, no extra workflow task, no server round trip. 0 turns either part off.
     */
    localStages: { maxSourceBytes: number; maxChunks: number };
    /**
     * Warm threads of the CPU pool (cpuPool/): parsing, chunking, tokenizing and sparse weighting,
     * each task under the parse time limit and heap cap. Default: the cores this process may use.
     */
    cpuThreads: number;
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const child of Object.values(value)) {
    // Certificates and keys stay Buffers: a typed array with elements cannot be frozen.
    if (child && typeof child === 'object' && !ArrayBuffer.isView(child)) deepFreeze(child as object);
  }
  return Object.freeze(value);
}

/** Parses the environment once; every wrong setting is named in one message, then we stop. */
export function loadConfig(env: EnvInput = process.env): Readonly<SluiceConfig> {
  const withPorts = withStackPortDefaults(env);
  const parsed = envSchema.safeParse(withPorts);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration — ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.SLUICE_CHUNK_OVERLAP_TOKENS * 2 > e.SLUICE_CHUNK_MAX_TOKENS) {
    problems.push('SLUICE_CHUNK_OVERLAP_TOKENS: must be at most half of SLUICE_CHUNK_MAX_TOKENS');
  }
  if (e.SLUICE_WEBHOOK_URL && !e.SLUICE_WEBHOOK_SECRET)
    problems.push('SLUICE_WEBHOOK_SECRET: required when SLUICE_WEBHOOK_URL is set');
  const stores = resolveStores(e, problems);
  const temporal = resolveTemporal(withPorts, repoRoot, problems);
  const dimension = embedDimension(e.SLUICE_EMBED_DIMENSION, stores, problems);
  const environmentDefault = environmentEmbeddingDefault(e, problems);
  if (stores.embedder.kind === 'user-config' && stores.embedder.secretKey) {
    try {
      parseEncryptionKey(stores.embedder.secretKey);
    } catch (error) {
      problems.push(`SLUICE_SECRET_KEY: ${error instanceof Error ? error.message : 'invalid'}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration — ${problems.join('; ')}`);
  return deepFreeze({
    temporal: {
      ...temporal,
      taskQueue: e.SLUICE_TASK_QUEUE,
      uiUrl: e.TEMPORAL_UI_URL,
    },
    database: { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE },
    dataDir: e.SLUICE_DATA_DIR,
    objectsDir: e.SLUICE_OBJECTS_DIR ?? path.join(e.SLUICE_DATA_DIR, 'objects'),
    tmpDir: e.SLUICE_TMP_DIR ?? path.join(e.SLUICE_DATA_DIR, 'tmp'),
    maxFileBytes: e.SLUICE_MAX_FILE_BYTES,
    parsing: {
      timeoutMs: durationMs(e.SLUICE_PARSE_TIMEOUT),
      maxUncompressedBytes: e.SLUICE_MAX_UNCOMPRESSED_BYTES,
      maxHeapMb: e.SLUICE_PARSE_HEAP_MB,
    },
    embedding: {
      dimension,
      batchSize: e.SLUICE_EMBED_BATCH_SIZE,
      localModel: {
        dir: e.SLUICE_MODEL_DIR ?? path.join(e.SLUICE_DATA_DIR, 'models'),
        threads: e.SLUICE_MODEL_THREADS ?? Math.max(1, os.availableParallelism()),
        maxTokens: e.SLUICE_MODEL_MAX_TOKENS,
      },
      environmentDefault,
    },
    chunking: { maxTokens: e.SLUICE_CHUNK_MAX_TOKENS, overlapTokens: e.SLUICE_CHUNK_OVERLAP_TOKENS },
    retryWait: e.SLUICE_RETRY_WAIT,
    webhook:
      e.SLUICE_WEBHOOK_URL && e.SLUICE_WEBHOOK_SECRET
        ? { url: e.SLUICE_WEBHOOK_URL, secret: e.SLUICE_WEBHOOK_SECRET }
        : null,
    stuckAfterMs: durationMs(e.SLUICE_STUCK_AFTER),
    sweepEveryMs: e.SLUICE_SWEEP_EVERY === 'off' ? null : durationMs(e.SLUICE_SWEEP_EVERY),
    orphanSweep: {
      everyMs: e.SLUICE_ORPHAN_SWEEP_EVERY === 'off' ? null : durationMs(e.SLUICE_ORPHAN_SWEEP_EVERY),
      graceMs: durationMs(e.SLUICE_ORPHAN_GRACE),
    },
    defaultUserId: e.SLUICE_USER_ID,
    logLevel: e.SLUICE_LOG_LEVEL,
    stores,
    api: {
      host: e.SLUICE_API_HOST,
      port: e.SLUICE_API_PORT,
      bodyLimitBytes: e.SLUICE_API_BODY_LIMIT_BYTES,
      maxHeaderBytes: e.SLUICE_API_MAX_HEADER_BYTES,
      batchMaxFiles: e.SLUICE_API_BATCH_MAX_FILES,
      ssePollMs: durationMs(e.SLUICE_API_SSE_POLL),
      maxStreamsPerKey: e.SLUICE_API_MAX_STREAMS_PER_KEY,
      requestTimeoutMs: e.SLUICE_API_REQUEST_TIMEOUT
        ? durationMs(e.SLUICE_API_REQUEST_TIMEOUT)
        : defaultRequestTimeoutMs(e.SLUICE_MAX_FILE_BYTES),
      idleTimeoutMs: durationMs(e.SLUICE_API_IDLE_TIMEOUT),
      trustProxy: trustProxyOf(e.SLUICE_API_TRUST_PROXY),
      sessionTtlMs: durationMs(e.SLUICE_ADMIN_SESSION_TTL),
      sessionSecret: e.SLUICE_SECRET_KEY ?? null,
    },
    quota: { maxBytes: e.SLUICE_USER_QUOTA_BYTES, maxDocuments: e.SLUICE_USER_QUOTA_DOCUMENTS },
    metrics: {
      workerBindAddress: e.SLUICE_WORKER_METRICS_BIND ?? null,
      workerUrl: e.SLUICE_WORKER_METRICS_URL ?? null,
      token: e.SLUICE_METRICS_TOKEN ?? null,
    },
    outbound: {
      allowPrivate: e.SLUICE_OUTBOUND_ALLOW_PRIVATE
        ? e.SLUICE_OUTBOUND_ALLOW_PRIVATE === 'true'
        : stores.profile === 'local',
    },
    worker: {
      queues: e.SLUICE_WORKER_QUEUES,
      activitySlots: e.SLUICE_WORKER_ACTIVITY_SLOTS,
      workflowSlots: e.SLUICE_WORKER_WORKFLOW_SLOTS,
      embedding: {
        activitySlots: e.SLUICE_EMBED_ACTIVITY_SLOTS,
        activitiesPerSecond: e.SLUICE_EMBED_ACTIVITIES_PER_SECOND > 0 ? e.SLUICE_EMBED_ACTIVITIES_PER_SECOND : null,
      },
      localStages: {
        maxSourceBytes: e.SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES,
        maxChunks: e.SLUICE_LOCAL_STAGE_MAX_CHUNKS,
      },
      cpuThreads: e.SLUICE_CPU_THREADS ?? Math.max(1, os.availableParallelism()),
    },
  });
}

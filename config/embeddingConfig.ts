import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LOCAL_MODEL_IDENTITY as LOCAL_MODEL } from '../contracts/localModel';
import type { EnvOf } from './envShape';
import type { StoresConfig } from './storesConfig';

export const embeddingEnv = {
  SLUICE_EMBED_DIMENSION: z.coerce
    .number()
    .int()
    .min(8)
    .max(4096)
    .optional()
    .describe('Vector size of the hashing embedder. Unset: 256; the local model fixes its own (512).'),
  SLUICE_MODEL_DIR: z
    .string()
    .min(1)
    .optional()
    .describe('Where the stack installed the local models. Unset: `$SLUICE_DATA_DIR/models`.'),
  SLUICE_MODEL_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .optional()
    .describe('Threads running the local models. Unset: the cores this process may use.'),
  SLUICE_MODEL_MAX_TOKENS: z.coerce
    .number()
    .int()
    .min(16)
    .max(4096)
    .default(512)
    .describe('Tokens of a text the local model reads; the rest is cut off.'),
  SLUICE_EMBED_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(2048)
    .default(64)
    .describe('Chunks per embedding request in VECTORIZING.'),
  SLUICE_DEFAULT_EMBEDDING_BASE_URL: z
    .url()
    .optional()
    .describe(
      'OpenAI-compatible provider for users with no config of their own and no stored default; with _MODEL and _DIMENSION.',
    ),
  SLUICE_DEFAULT_EMBEDDING_MODEL: z.string().min(1).optional().describe("The environment default provider's model."),
  SLUICE_DEFAULT_EMBEDDING_DIMENSION: z.coerce
    .number()
    .int()
    .min(1)
    .max(65536)
    .optional()
    .describe("Vector size of the environment default provider's model."),
  SLUICE_DEFAULT_EMBEDDING_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("The environment default provider's API key."),
  SLUICE_LANGUAGE_DENSE: z
    .enum(['on', 'off', 'auto'])
    .default('auto')
    .describe(
      "VECTORIZING also writes a vector from the bge-small model of each chunk's language, and search fuses it: `on` (start-up fails without the models), `off`, or `auto`: on when the models are installed in SLUICE_MODEL_DIR.",
    ),
  SLUICE_PASSAGE_WINDOWS: z
    .enum(['on', 'off'])
    .default('off')
    .describe(
      "With the second dense vector, VECTORIZING also embeds each chunk's passage windows (runs of its sentences), which search scores its candidates by: `on` for a few points of recall at about three times the second vector's embedding work, charged to the user's quota; `off`.",
    ),
  SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT: z.coerce
    .number()
    .int()
    .min(0)
    .default(20_000)
    .describe(
      'Passage windows one document may have in all: each chunk gets its share (at most 12); a document with fewer than 2 per chunk gets none.',
    ),
};

type EmbeddingEnv = EnvOf<typeof embeddingEnv>;

export type LanguageDenseSetting = EmbeddingEnv['SLUICE_LANGUAGE_DENSE'];

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

export interface EmbeddingSettings {
  /**
   * `dimension`: of the hashing embedder (Qdrant sizes a collection per model); the local model fixes it at
   * its own (512). `localModel`: where the stack installed the model, its threads and token limit.
   */
  embedding: {
    dimension: number;
    batchSize: number;
    localModel: { dir: string; threads: number; maxTokens: number };
    environmentDefault: EnvironmentEmbeddingDefault | null;
    /**
     * Whether VECTORIZING also writes each chunk's vector from the bge-small model of its language
     * (installed beside the local model, in localModel.dir) and search fuses it. `auto` (the
     * default) is on wherever the models are installed: on manuals the eval never tuned on it
     * lifts recall@5, at about 0.17 of VECTORIZING's chunk rate (docs/search.md).
     */
    languageDense: LanguageDenseSetting;
    /**
     * Whether the second dense vector's VECTORIZING also embeds each chunk's passage windows
     * (chunker/passageWindows.ts): on by default; they lift held-out recall@5 at about a third of
     * that stage's chunk rate (docs/search.md).
     */
    passageWindows: boolean;
    /** SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT: a document's windows in all (chunker/passageWindows.ts windowsPerChild). */
    maxWindowsPerDocument: number;
  };
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

function environmentEmbeddingDefault(e: EmbeddingEnv, problems: string[]): EnvironmentEmbeddingDefault | null {
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

export function embeddingSettings(
  e: EmbeddingEnv,
  stores: StoresConfig,
  dataDir: string,
  problems: string[],
): EmbeddingSettings {
  return {
    embedding: {
      dimension: embedDimension(e.SLUICE_EMBED_DIMENSION, stores, problems),
      batchSize: e.SLUICE_EMBED_BATCH_SIZE,
      localModel: {
        dir: e.SLUICE_MODEL_DIR ?? path.join(dataDir, 'models'),
        threads: e.SLUICE_MODEL_THREADS ?? Math.max(1, os.availableParallelism()),
        maxTokens: e.SLUICE_MODEL_MAX_TOKENS,
      },
      environmentDefault: environmentEmbeddingDefault(e, problems),
      languageDense: e.SLUICE_LANGUAGE_DENSE,
      passageWindows: e.SLUICE_PASSAGE_WINDOWS === 'on',
      maxWindowsPerDocument: e.SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT,
    },
  };
}

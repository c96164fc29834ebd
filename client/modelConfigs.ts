import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { decryptSecret, encryptSecret } from '../crypto/secretBox';
import type { Database, ModelPurpose } from '../db/database';
import {
  deleteModelConfig,
  findModelConfig,
  ModelKeyBoundToHostError,
  saveModelConfig,
  type ModelConfigRow,
} from '../db/repositories/modelConfigs';
import { maskApiKey } from '../embedders/embeddingSettings';
import { completeChat } from '../enrichment/chatModel';
import { loadModelSettings, UnreadableModelKeyError } from '../enrichment/storedModel';
import { SluiceError } from '../contracts/sluiceError';
import { callReranker, RerankFailedError } from '../rerank/rerankClient';
import { RERANK_SHAPES, type RerankShape } from '../rerank/rerankProtocol';
import { loadRerankerSettings } from '../rerank/storedReranker';
import { decryptionKeysOf, EmbeddingConfigError, encryptionKeyOf } from './embeddingConfigs';

/**
 * A user's CHAT and VISION models (docs/enrichment.md) and RERANK model (docs/search.md), kept like
 * embedding configs: the API key sealed with SLUICE_SECRET_KEY and write-only (shown masked), bound
 * to the host it was given for; `sluice model`, the /v1/model-configs routes and the admin page all
 * come through here.
 */
export interface ModelConfigDeps {
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

export const MODEL_PURPOSES = ['chat', 'vision', 'rerank'] as const satisfies readonly ModelPurpose[];

export interface ModelConfigView {
  purpose: ModelPurpose;
  baseUrl: string;
  model: string;
  /** Masked (maskApiKey); null when none is stored. */
  apiKey: string | null;
  /** The reranker's request shape (rerank/rerankProtocol.ts); null for CHAT and VISION. */
  apiShape: RerankShape | null;
  updatedAt: string;
}

export async function saveModelSettings(
  deps: ModelConfigDeps,
  userId: string,
  purpose: ModelPurpose,
  input: { baseUrl: string; model: string; apiKey?: string | null; apiShape?: RerankShape },
): Promise<ModelConfigView> {
  if (!/^https?:\/\//i.test(input.baseUrl))
    throw new EmbeddingConfigError('the base URL must be an http:// or https:// URL');
  if (input.model.trim() === '') throw new EmbeddingConfigError('a model name is needed');
  if (purpose === 'rerank' && input.apiShape === undefined)
    throw new EmbeddingConfigError(`a reranker needs its API shape: ${RERANK_SHAPES.join(' or ')}`);
  if (purpose !== 'rerank' && input.apiShape !== undefined)
    throw new EmbeddingConfigError('an API shape is given for a reranker only');
  const sealedApiKey =
    input.apiKey === undefined
      ? undefined
      : input.apiKey === null
        ? null
        : encryptSecret(encryptionKeyOf(deps.config, 'model configs'), input.apiKey);
  try {
    const row = await saveModelConfig(deps.db, userId, purpose, {
      baseUrl: input.baseUrl,
      model: input.model,
      sealedApiKey,
      apiShape: input.apiShape ?? null,
    });
    return viewOf(deps, row);
  } catch (error) {
    throw error instanceof ModelKeyBoundToHostError ? new EmbeddingConfigError(error.message) : error;
  }
}

export async function showModelSettings(
  deps: ModelConfigDeps,
  userId: string,
  purpose: ModelPurpose,
): Promise<ModelConfigView | null> {
  const row = await findModelConfig(deps.db, userId, purpose);
  return row ? viewOf(deps, row) : null;
}

export function deleteModelSettings(deps: ModelConfigDeps, userId: string, purpose: ModelPurpose): Promise<boolean> {
  return deleteModelConfig(deps.db, userId, purpose);
}

export interface ModelTestResult {
  ok: boolean;
  model: string;
  message: string;
}

/** One short chat through the outbound policy, as enrichment calls the model; null when none is stored. */
export async function testModelSettings(
  deps: ModelConfigDeps,
  userId: string,
  purpose: ModelPurpose,
): Promise<ModelTestResult | null> {
  if (purpose === 'rerank') return testReranker(deps, userId);
  let settings;
  try {
    // Keys are asked for only when a key is stored: a model without one is tested without SLUICE_SECRET_KEY.
    settings = await loadModelSettings(deps.db, () => decryptionKeysOf(deps.config, 'model configs'), userId, purpose);
  } catch (error) {
    if (error instanceof UnreadableModelKeyError) throw new EmbeddingConfigError(error.message);
    throw error;
  }
  if (!settings) return null;
  try {
    const reply = await completeChat(settings, [{ role: 'user', content: 'Reply with the single word OK.' }], {
      outbound: deps.config.outbound,
      maxResponseBytes: deps.config.enrichment.maxResponseBytes,
      code: 'LLM_CONFIG_MISSING',
      timeoutMs: 30_000,
    });
    return {
      ok: true,
      model: settings.model,
      message: `model ${settings.model} answered (${reply.length} characters)`,
    };
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    return { ok: false, model: settings.model, message: error.message };
  }
}

/** Two texts scored for one question, as search calls the reranker; null when none is stored. */
async function testReranker(deps: ModelConfigDeps, userId: string): Promise<ModelTestResult | null> {
  let settings;
  try {
    settings = await loadRerankerSettings(deps.db, () => decryptionKeysOf(deps.config, 'model configs'), userId);
  } catch (error) {
    if (error instanceof UnreadableModelKeyError) throw new EmbeddingConfigError(error.message);
    throw error;
  }
  if (!settings) return null;
  const texts = ['Postgres keeps its data in a directory.', 'The weather was fine.'];
  try {
    const scores = await callReranker(settings, 'Where does Postgres keep its data?', texts, {
      outbound: deps.config.outbound,
      timeoutMs: 30_000,
      maxResponseBytes: RERANK_TEST_RESPONSE_BYTES,
    });
    const shown = scores.map((score) => (score === null ? 'none' : score.toFixed(3))).join(' and ');
    return { ok: true, model: settings.model, message: `reranker ${settings.model} scored two texts ${shown}` };
  } catch (error) {
    if (!(error instanceof RerankFailedError)) throw error;
    return { ok: false, model: settings.model, message: error.message };
  }
}

/** What a test's two scores may take: far more than their JSON, far less than a wrong endpoint's page. */
const RERANK_TEST_RESPONSE_BYTES = 64 * 1024;

/** A key sealed under another SLUICE_SECRET_KEY still shows as set: replacing it must stay possible. */
function viewOf(deps: ModelConfigDeps, row: ModelConfigRow): ModelConfigView {
  let apiKey: string | null = null;
  if (row.api_key_encrypted !== null) {
    try {
      apiKey = maskApiKey(decryptSecret(decryptionKeysOf(deps.config, 'model configs'), row.api_key_encrypted));
    } catch {
      apiKey = 'set, but SLUICE_SECRET_KEY cannot decrypt it';
    }
  }
  return {
    purpose: row.purpose,
    baseUrl: row.base_url,
    model: row.model,
    apiKey,
    apiShape: row.api_shape,
    updatedAt: new Date(row.created_at).toISOString(),
  };
}

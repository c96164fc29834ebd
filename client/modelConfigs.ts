import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { encryptSecret } from '../crypto/secretBox';
import type { Database, ModelPurpose } from '../db/database';
import {
  deleteModelConfig,
  findModelConfig,
  ModelKeyBoundToHostError,
  saveModelConfig,
} from '../db/repositories/modelConfigs';
import { EmbeddingConfigError, encryptionKeyOf } from './embeddingConfigs';

/**
 * A user's CHAT and VISION models (docs/enrichment.md), kept like embedding configs: the API key
 * sealed with SLUICE_SECRET_KEY and write-only, bound to the host it was given for.
 */
export interface ModelConfigDeps {
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

export interface ModelConfigView {
  purpose: ModelPurpose;
  baseUrl: string;
  model: string;
  /** Whether a key is stored; the key itself is never shown. */
  apiKey: 'set' | null;
  updatedAt: string;
}

export async function saveModelSettings(
  deps: ModelConfigDeps,
  userId: string,
  purpose: ModelPurpose,
  input: { baseUrl: string; model: string; apiKey?: string | null },
): Promise<ModelConfigView> {
  if (!/^https?:\/\//i.test(input.baseUrl))
    throw new EmbeddingConfigError('the base URL must be an http:// or https:// URL');
  if (input.model.trim() === '') throw new EmbeddingConfigError('a model name is needed');
  const sealedApiKey =
    input.apiKey === undefined
      ? undefined
      : input.apiKey === null
        ? null
        : encryptSecret(encryptionKeyOf(deps.config), input.apiKey);
  try {
    const row = await saveModelConfig(deps.db, userId, purpose, {
      baseUrl: input.baseUrl,
      model: input.model,
      sealedApiKey,
    });
    return viewOf(row);
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
  return row ? viewOf(row) : null;
}

export function deleteModelSettings(deps: ModelConfigDeps, userId: string, purpose: ModelPurpose): Promise<boolean> {
  return deleteModelConfig(deps.db, userId, purpose);
}

function viewOf(row: NonNullable<Awaited<ReturnType<typeof findModelConfig>>>): ModelConfigView {
  return {
    purpose: row.purpose,
    baseUrl: row.base_url,
    model: row.model,
    apiKey: row.api_key_encrypted === null ? null : 'set',
    updatedAt: new Date(row.created_at).toISOString(),
  };
}

import type { EnvironmentEmbeddingDefault } from '../config/config';
import { permanentError } from '../contracts/sluiceError';
import type { EmbeddingConfigRow } from '../db/repositories/embeddingConfigs';
import type { OutboundPolicy } from '../outbound/outboundHttp';
import type { Embedder } from './embedder';
import { createLocalHashEmbedder } from './localHashEmbedder';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openAiEmbedder';
import { decryptSecret } from '../crypto/secretBox';

/** Where provider `openai` goes when its config has no base URL. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** An embedding configuration with its key in plain text: only ever in memory. */
export interface EmbeddingSettings {
  provider: string;
  baseUrl: string | null;
  model: string;
  dimension: number;
  apiKey: string | null;
}

export type TransportOptions = Pick<OpenAiEmbedderOptions, 'batchSize' | 'concurrency' | 'timeoutMs' | 'maxRetries'>;

/** A stored row with its key unsealed; a key that cannot be unsealed is LLM_CONFIG_MISSING. */
export function settingsOfRow(row: EmbeddingConfigRow, encryptionKey: Buffer | readonly Buffer[]): EmbeddingSettings {
  let apiKey: string | null = null;
  if (row.api_key_encrypted !== null) {
    try {
      apiKey = decryptSecret(encryptionKey, row.api_key_encrypted);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw permanentError(
        'LLM_CONFIG_MISSING',
        `the API key of embedding config ${row.id} cannot be decrypted (${reason})`,
      );
    }
  }
  return { provider: row.provider, baseUrl: row.base_url, model: row.model, dimension: row.dimension, apiKey };
}

export function settingsOfEnvironment(env: EnvironmentEmbeddingDefault): EmbeddingSettings {
  return { provider: 'openai', baseUrl: env.baseUrl, model: env.model, dimension: env.dimension, apiKey: env.apiKey };
}

export function embedderOf(
  settings: EmbeddingSettings,
  outbound: OutboundPolicy,
  options: TransportOptions = {},
): Embedder {
  if (settings.provider === 'local') return createLocalHashEmbedder({ dimension: settings.dimension });
  const baseUrl = settings.baseUrl ?? (settings.provider === 'openai' ? OPENAI_BASE_URL : null);
  if (baseUrl === null)
    throw permanentError('LLM_CONFIG_MISSING', `the embedding config (provider ${settings.provider}) has no base URL`);
  return createOpenAiEmbedder({
    ...options,
    outbound,
    baseUrl,
    apiKey: settings.apiKey,
    model: settings.model,
    dimension: settings.dimension,
  });
}

/**
 * What may be shown of an API key: its last four characters (and a well-known `sk-` prefix),
 * or only that one is set when the key is too short for four characters to be safe to show.
 */
export function maskApiKey(apiKey: string | null): string | null {
  if (apiKey === null) return null;
  if (apiKey.length < 12) return 'set';
  return `${apiKey.startsWith('sk-') ? 'sk-' : ''}…${apiKey.slice(-4)}`;
}

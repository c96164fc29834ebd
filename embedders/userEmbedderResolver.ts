import type { Kysely } from 'kysely';
import { permanentError } from '../contracts/sluiceError';
import type { Database } from '../db/database';
import type { OutboundPolicy } from '../outbound/outboundHttp';
import { findDefaultEmbeddingConfig, type EmbeddingConfigRow } from '../db/repositories/embeddingConfigs';
import type { Embedder } from './embedder';
import type { EmbedderResolver } from './embedderResolver';
import { createLocalHashEmbedder } from './localHashEmbedder';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openAiEmbedder';
import { decryptSecret } from './secretBox';

/** Where provider `openai` goes when its config has no base URL. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface UserEmbedderResolverDeps {
  db: Kysely<Database>;
  /** The AES-256-GCM key that sealed `api_key_encrypted` (see secretBox.parseEncryptionKey). */
  encryptionKey: Buffer;
  /** Used for users without a default config; without it such users fail with LLM_CONFIG_MISSING. */
  fallback?: Embedder | null;
  /** Transport settings applied to every OpenAI-compatible embedder built here. */
  options?: Pick<OpenAiEmbedderOptions, 'batchSize' | 'concurrency' | 'timeoutMs' | 'maxRetries'>;
  /** Which addresses users' base URLs may reach (config.outbound). */
  outbound: OutboundPolicy;
}

/**
 * Picks the embedder of the user who started the ingestion (DESIGN.md §3, VECTORIZING): the user's
 * default embedding config, or the fallback. Embedders are cached per user and config row, so
 * the key is decrypted once per config, and a new default (a new row) takes effect at once.
 */
export function createUserEmbedderResolver(deps: UserEmbedderResolverDeps): EmbedderResolver {
  const cache = new Map<string, { configId: number; embedder: Embedder }>();

  function build(userId: string, config: EmbeddingConfigRow): Embedder {
    if (config.provider === 'local') return createLocalHashEmbedder({ dimension: config.dimension });
    const baseUrl = config.base_url ?? (config.provider === 'openai' ? OPENAI_BASE_URL : null);
    if (baseUrl === null) {
      throw permanentError('LLM_CONFIG_MISSING', `embedding config ${config.id} of user ${userId} (provider ${config.provider}) has no base URL`);
    }
    let apiKey: string | null = null;
    if (config.api_key_encrypted !== null) {
      try {
        apiKey = decryptSecret(deps.encryptionKey, config.api_key_encrypted);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw permanentError('LLM_CONFIG_MISSING', `the API key of embedding config ${config.id} of user ${userId} cannot be decrypted (${reason})`);
      }
    }
    return createOpenAiEmbedder({ ...deps.options, outbound: deps.outbound, baseUrl, apiKey, model: config.model, dimension: config.dimension });
  }

  return {
    async forUser(userId) {
      const config = await findDefaultEmbeddingConfig(deps.db, userId);
      if (!config) {
        if (deps.fallback) return deps.fallback;
        throw permanentError('LLM_CONFIG_MISSING', `user ${userId} has no default embedding config and no fallback embedder is configured`);
      }
      const cached = cache.get(userId);
      if (cached?.configId === config.id) return cached.embedder;
      const embedder = build(userId, config);
      // One entry per user: a replaced config's embedder (and its decrypted key) is dropped.
      cache.set(userId, { configId: config.id, embedder });
      return embedder;
    },
  };
}

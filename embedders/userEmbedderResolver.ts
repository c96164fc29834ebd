import type { Kysely } from 'kysely';
import type { EnvironmentEmbeddingDefault } from '../config/config';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import type { Database } from '../db/database';
import type { OutboundPolicy } from '../outbound/outboundHttp';
import {
  DEPLOYMENT_DEFAULT_OWNER,
  findEffectiveEmbeddingConfig,
  type EmbeddingConfigRow,
} from '../db/repositories/embeddingConfigs';
import type { Embedder } from './embedder';
import type { EmbedderResolver } from './embedderResolver';
import { embedderOf, settingsOfEnvironment, settingsOfRow, type TransportOptions } from './embeddingSettings';

export interface UserEmbedderResolverDeps {
  db: Kysely<Database>;
  /**
   * The AES-256-GCM key that sealed `api_key_encrypted` (see crypto/secretBox.ts parseEncryptionKey),
   * or the current key and then the previous one while a rotation is under way.
   */
  encryptionKey: Buffer | readonly Buffer[];
  /** The operator's default from SLUICE_DEFAULT_EMBEDDING_* (config.embedding.environmentDefault). */
  environmentDefault?: EnvironmentEmbeddingDefault | null;
  /** Used for users no config reaches; without it such users fail with LLM_CONFIG_MISSING. */
  fallback?: Embedder | null;
  /** Transport settings applied to every OpenAI-compatible embedder built here. */
  options?: TransportOptions;
  /** Which addresses users' base URLs may reach (config.outbound). */
  outbound: OutboundPolicy;
}

export type EmbeddingSource =
  | { kind: 'user' | 'deployment'; config: EmbeddingConfigRow }
  | { kind: 'environment'; config: EnvironmentEmbeddingDefault }
  | { kind: 'fallback'; embedder: Embedder }
  | { kind: 'missing' };

/**
 * The resolution order: the user's own config → the deployment default stored with
 * `sluice embedding set --default` → the operator's SLUICE_DEFAULT_EMBEDDING_* → the fallback
 * embedder → nothing (LLM_CONFIG_MISSING).
 */
export function pickEmbeddingSource(candidates: {
  own?: EmbeddingConfigRow;
  deployment?: EmbeddingConfigRow;
  environment?: EnvironmentEmbeddingDefault | null;
  fallback?: Embedder | null;
}): EmbeddingSource {
  if (candidates.own) return { kind: 'user', config: candidates.own };
  if (candidates.deployment) return { kind: 'deployment', config: candidates.deployment };
  if (candidates.environment) return { kind: 'environment', config: candidates.environment };
  if (candidates.fallback) return { kind: 'fallback', embedder: candidates.fallback };
  return { kind: 'missing' };
}

/** The user's own config or else the deployment default, in one query, sorted into the candidates. */
export async function storedCandidates(
  db: Kysely<Database>,
  userId: string,
): Promise<{ own?: EmbeddingConfigRow; deployment?: EmbeddingConfigRow }> {
  const row = await findEffectiveEmbeddingConfig(db, userId);
  if (!row) return {};
  return row.user_id === DEPLOYMENT_DEFAULT_OWNER ? { deployment: row } : { own: row };
}

/**
 * Picks the embedder of the user who started the ingestion (docs/design.md §3, VECTORIZING) by
 * pickEmbeddingSource. Embedders are cached per config owner and row, so a key is decrypted once
 * per config, and a new config (a new row) takes effect at once.
 */
export function createUserEmbedderResolver(deps: UserEmbedderResolverDeps): EmbedderResolver {
  const cache = new Map<string, { configId: number; embedder: Embedder }>();
  let environmentEmbedder: Embedder | null = null;

  function build(userId: string, config: EmbeddingConfigRow): Embedder {
    try {
      return embedderOf(settingsOfRow(config, deps.encryptionKey), deps.outbound, deps.options);
    } catch (err) {
      // Name the user the failed config serves; the reason never holds the key.
      if (err instanceof SluiceError && err.code === 'LLM_CONFIG_MISSING') {
        throw permanentError('LLM_CONFIG_MISSING', `user ${userId}: ${err.message}`);
      }
      throw err;
    }
  }

  return {
    async forUser(userId) {
      const source = pickEmbeddingSource({
        ...(await storedCandidates(deps.db, userId)),
        environment: deps.environmentDefault,
        fallback: deps.fallback,
      });
      switch (source.kind) {
        case 'missing':
          throw permanentError(
            'LLM_CONFIG_MISSING',
            `user ${userId} has no embedding config, and the deployment has no default one (sluice embedding set)`,
          );
        case 'fallback':
          return source.embedder;
        case 'environment':
          environmentEmbedder ??= embedderOf(settingsOfEnvironment(source.config), deps.outbound, deps.options);
          return environmentEmbedder;
        default: {
          const owner = source.config.user_id;
          const cached = cache.get(owner);
          if (cached?.configId === source.config.id) return cached.embedder;
          const embedder = build(userId, source.config);
          // One entry per owner: a replaced config's embedder (and its decrypted key) is dropped.
          cache.set(owner, { configId: source.config.id, embedder });
          return embedder;
        }
      }
    },
  };
}

import { sql, type Kysely, type Selectable } from 'kysely';
import { encryptSecret } from '../../embedders/secretBox';
import type { Database, EmbeddingConfigsTable } from '../database';

export type EmbeddingConfigRow = Selectable<EmbeddingConfigsTable>;

export interface EmbeddingConfigInput {
  /** `local` (the offline hashing embedder) or an OpenAI-compatible provider such as `openai`. */
  provider: string;
  model: string;
  dimension: number;
  /** e.g. `https://api.openai.com/v1`; null means the provider's default. */
  baseUrl: string | null;
  /** Plain text here, encrypted before it reaches the database; null for providers without keys. */
  apiKey: string | null;
}

/**
 * Makes `input` the user's default embedding config. In one transaction, serialised per user: the
 * previous default is deleted (its encrypted key goes with it) and the new row inserted. Only the
 * AES-256-GCM sealed key is stored, never the plain one.
 */
export async function setDefaultEmbeddingConfig(
  db: Kysely<Database>,
  userId: string,
  input: EmbeddingConfigInput,
  encryptionKey: Buffer,
): Promise<EmbeddingConfigRow> {
  if (input.provider.trim() === '' || input.model.trim() === '') throw new Error('embedding config needs a provider and a model');
  if (!Number.isInteger(input.dimension) || input.dimension < 1) {
    throw new Error(`embedding config dimension must be a positive integer, got ${input.dimension}`);
  }
  const sealedKey = input.apiKey === null ? null : encryptSecret(encryptionKey, input.apiKey);
  return db.transaction().execute(async (trx) => {
    // Two concurrent replacements for one user would otherwise both delete nothing, then collide
    // on the one-default-per-user unique index.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`embedding_configs:${userId}`}, 0))`.execute(trx);
    await trx.deleteFrom('embedding_configs').where('user_id', '=', userId).where('is_default', '=', true).execute();
    return trx
      .insertInto('embedding_configs')
      .values({
        user_id: userId,
        is_default: true,
        provider: input.provider,
        model: input.model,
        dimension: input.dimension,
        base_url: input.baseUrl,
        api_key_encrypted: sealedKey,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function findDefaultEmbeddingConfig(db: Kysely<Database>, userId: string): Promise<EmbeddingConfigRow | undefined> {
  return db
    .selectFrom('embedding_configs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

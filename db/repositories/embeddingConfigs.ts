import { sql, type Kysely, type Selectable } from 'kysely';
import { encryptSecret } from '../../crypto/secretBox';
import type { Database, EmbeddingConfigsTable } from '../database';

export type EmbeddingConfigRow = Selectable<EmbeddingConfigsTable>;

/**
 * The owner of the deployment-wide default config (`sluice embedding set --default`): users
 * without a config of their own embed with it. The colon-wrapped name is no valid user id
 * (routes and the CLI refuse it as one).
 */
export const DEPLOYMENT_DEFAULT_OWNER = ':deployment:';

export interface EmbeddingConfigInput {
  /** `local` (the offline hashing embedder) or an OpenAI-compatible provider such as `openai`. */
  provider: string;
  model: string;
  dimension: number;
  /** e.g. `https://api.openai.com/v1`; null means the provider's default. */
  baseUrl: string | null;
  /**
   * Plain text here, encrypted before it reaches the database; null for providers without keys;
   * undefined keeps the key of the config being replaced (the key is write-only).
   */
  apiKey?: string | null;
}

/**
 * A stored API key was given for one host; replacing the config with another host without giving a
 * key again would send that key to the new host, so the save is refused.
 */
export class KeyBoundToHostError extends Error {
  override readonly name = 'KeyBoundToHostError';

  constructor() {
    super('the stored API key was given for another host: give the API key again (or none) when changing the base URL');
  }
}

/** Where a key is sent: scheme, host and port of the base URL (null: the provider's default). */
function keyHost(baseUrl: string | null): string {
  if (baseUrl === null) return 'provider default';
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

export interface SavedEmbeddingConfig {
  saved: EmbeddingConfigRow;
  /** The owner's config this one replaced, if any. */
  previous: EmbeddingConfigRow | undefined;
}

/**
 * Makes `input` the owner's default embedding config. In one transaction, serialised per owner:
 * the previous default is deleted (its encrypted key goes with it, unless kept) and the new row
 * inserted. Only the AES-256-GCM sealed key is stored, never the plain one. A kept key stays
 * with the host it was given for (KeyBoundToHostError); the throw rolls the deletion back.
 */
export async function saveEmbeddingConfig(
  db: Kysely<Database>,
  ownerId: string,
  input: EmbeddingConfigInput,
  encryptionKey: Buffer,
): Promise<SavedEmbeddingConfig> {
  if (input.provider.trim() === '' || input.model.trim() === '')
    throw new Error('embedding config needs a provider and a model');
  if (!Number.isInteger(input.dimension) || input.dimension < 1) {
    throw new Error(`embedding config dimension must be a positive integer, got ${input.dimension}`);
  }
  const sealedKey =
    input.apiKey === undefined || input.apiKey === null ? null : encryptSecret(encryptionKey, input.apiKey);
  return db.transaction().execute(async (trx) => {
    // Two concurrent replacements for one owner would otherwise both delete nothing, then collide
    // on the one-default-per-user unique index.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`embedding_configs:${ownerId}`}, 0))`.execute(trx);
    const previous = await trx
      .deleteFrom('embedding_configs')
      .where('user_id', '=', ownerId)
      .where('is_default', '=', true)
      .returningAll()
      .executeTakeFirst();
    const keepsKey = input.apiKey === undefined && previous?.api_key_encrypted != null;
    if (keepsKey && keyHost(previous.base_url) !== keyHost(input.baseUrl)) throw new KeyBoundToHostError();
    const saved = await trx
      .insertInto('embedding_configs')
      .values({
        user_id: ownerId,
        is_default: true,
        provider: input.provider,
        model: input.model,
        dimension: input.dimension,
        base_url: input.baseUrl,
        api_key_encrypted: input.apiKey === undefined ? (previous?.api_key_encrypted ?? null) : sealedKey,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { saved, previous };
  });
}

/** saveEmbeddingConfig without the replaced row. */
export async function setDefaultEmbeddingConfig(
  db: Kysely<Database>,
  userId: string,
  input: EmbeddingConfigInput,
  encryptionKey: Buffer,
): Promise<EmbeddingConfigRow> {
  return (await saveEmbeddingConfig(db, userId, input, encryptionKey)).saved;
}

export async function findDefaultEmbeddingConfig(
  db: Kysely<Database>,
  userId: string,
): Promise<EmbeddingConfigRow | undefined> {
  return db
    .selectFrom('embedding_configs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

/** The user's own default config, else the deployment default: one round trip. */
export async function findEffectiveEmbeddingConfig(
  db: Kysely<Database>,
  userId: string,
): Promise<EmbeddingConfigRow | undefined> {
  return db
    .selectFrom('embedding_configs')
    .selectAll()
    .where('user_id', 'in', [userId, DEPLOYMENT_DEFAULT_OWNER])
    .where('is_default', '=', true)
    .orderBy(sql`user_id = ${DEPLOYMENT_DEFAULT_OWNER}`)
    .limit(1)
    .executeTakeFirst();
}

/** Removes the owner's default config (and its sealed key); false when there was none. */
export async function deleteDefaultEmbeddingConfig(db: Kysely<Database>, ownerId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('embedding_configs')
    .where('user_id', '=', ownerId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Every stored sealed key, for `sluice secrets rotate`: ids and sealed values only. */
export async function listSealedApiKeys(db: Kysely<Database>): Promise<{ id: number; sealed: string }[]> {
  const rows = await db
    .selectFrom('embedding_configs')
    .select(['id', 'api_key_encrypted'])
    .where('api_key_encrypted', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, sealed: row.api_key_encrypted ?? '' }));
}

/**
 * Replaces one sealed key, only if it is still the value that was read (compare-and-set): a
 * config saved meanwhile keeps its new key. True when the row was updated.
 */
export async function resealApiKey(
  db: Kysely<Database>,
  id: number,
  expected: string,
  resealed: string,
): Promise<boolean> {
  const result = await db
    .updateTable('embedding_configs')
    .set({ api_key_encrypted: resealed })
    .where('id', '=', id)
    .where('api_key_encrypted', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

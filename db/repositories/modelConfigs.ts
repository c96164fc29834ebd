import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ModelConfigsTable, ModelPurpose } from '../database';

export type ModelConfigRow = Selectable<ModelConfigsTable>;

export interface ModelConfigInput {
  baseUrl: string;
  model: string;
  /** Already sealed (crypto/secretBox.ts); null for an endpoint without a key; undefined keeps the stored one. */
  sealedApiKey?: string | null;
  /** The reranker's request shape; null for a chat or vision model. */
  apiShape: 'tei' | 'cohere' | null;
}

/** A kept key stays with the host it was given for, as embedding configs' keys do: a new URL must not receive it. */
export class ModelKeyBoundToHostError extends Error {
  override readonly name = 'ModelKeyBoundToHostError';
  constructor() {
    super('the stored API key was given for another host: give the API key again (or none) when changing the base URL');
  }
}

const origin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** Replaces the user's model for `purpose`, in one transaction under the row's lock. */
export async function saveModelConfig(
  db: Kysely<Database>,
  userId: string,
  purpose: ModelPurpose,
  input: ModelConfigInput,
): Promise<ModelConfigRow> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`model_configs:${userId}:${purpose}`}, 0))`.execute(trx);
    const previous = await findModelConfig(trx, userId, purpose);
    if (
      input.sealedApiKey === undefined &&
      previous?.api_key_encrypted &&
      origin(previous.base_url) !== origin(input.baseUrl)
    )
      throw new ModelKeyBoundToHostError();
    const sealed = input.sealedApiKey === undefined ? (previous?.api_key_encrypted ?? null) : input.sealedApiKey;
    const values = {
      base_url: input.baseUrl,
      model: input.model,
      api_key_encrypted: sealed,
      api_shape: input.apiShape,
      created_at: new Date(),
    };
    return trx
      .insertInto('model_configs')
      .values({ user_id: userId, purpose, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function findModelConfig(
  db: Kysely<Database>,
  userId: string,
  purpose: ModelPurpose,
): Promise<ModelConfigRow | undefined> {
  return db
    .selectFrom('model_configs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

export async function deleteModelConfig(db: Kysely<Database>, userId: string, purpose: ModelPurpose): Promise<boolean> {
  const deleted = await db
    .deleteFrom('model_configs')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Every stored sealed model key, for `sluice secrets rotate`: the row's key and sealed value only. */
export async function listSealedModelKeys(
  db: Kysely<Database>,
): Promise<{ userId: string; purpose: ModelPurpose; sealed: string }[]> {
  const rows = await db
    .selectFrom('model_configs')
    .select(['user_id', 'purpose', 'api_key_encrypted'])
    .where('api_key_encrypted', 'is not', null)
    .orderBy('user_id')
    .orderBy('purpose')
    .execute();
  return rows.map((row) => ({ userId: row.user_id, purpose: row.purpose, sealed: row.api_key_encrypted ?? '' }));
}

/** Replaces one sealed model key only if it is still the value read (compare-and-set), like resealApiKey. */
export async function resealModelKey(
  db: Kysely<Database>,
  row: { userId: string; purpose: ModelPurpose },
  expected: string,
  resealed: string,
): Promise<boolean> {
  const result = await db
    .updateTable('model_configs')
    .set({ api_key_encrypted: resealed })
    .where('user_id', '=', row.userId)
    .where('purpose', '=', row.purpose)
    .where('api_key_encrypted', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

import { sql, type Kysely } from 'kysely';
import type { ApiKeyRow, Database, UserRow } from '../database';

/** Creates the user unless it exists; returns the stored row either way. */
export async function ensureUser(
  db: Kysely<Database>,
  user: { id: string; displayName?: string | null },
): Promise<UserRow> {
  await db
    .insertInto('users')
    .values({ id: user.id, display_name: user.displayName ?? null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
}

export async function findUser(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function insertApiKey(
  db: Kysely<Database>,
  key: { id: string; userId: string; label: string | null; secretSha256: string },
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({ id: key.id, user_id: key.userId, label: key.label, secret_sha256: key.secretSha256 })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A key that has not been revoked; undefined for an unknown or revoked id. */
export async function findActiveApiKey(db: Kysely<Database>, keyId: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Records use at most once a minute per key, so authentication does not write on every request. */
export async function touchApiKey(db: Kysely<Database>, keyId: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]),
    )
    .execute();
}

export async function revokeApiKey(db: Kysely<Database>, keyId: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listApiKeys(db: Kysely<Database>, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

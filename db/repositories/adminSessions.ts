import type { Kysely } from 'kysely';
import type { Database } from '../database';

/** Records a signed-out session until its expiry (idempotent), and drops revocations that expired. */
export async function revokeAdminSession(db: Kysely<Database>, sessionId: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto('admin_session_revocations')
    .values({ session_id: sessionId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
  await db.deleteFrom('admin_session_revocations').where('expires_at', '<', new Date()).execute();
}

export async function isAdminSessionRevoked(db: Kysely<Database>, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('admin_session_revocations')
    .select('session_id')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row !== undefined;
}

import type { Kysely } from 'kysely';

// Admin-page sessions are signed cookies (api/adminSessions.ts); signing out records the
// session's id here until its expiry, so the cookie is refused by every API process even if it
// was copied before sign-out. Rows past their expiry are dead weight and are purged on sign-out.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_session_revocations')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('admin_session_revocations_expiry_idx')
    .on('admin_session_revocations')
    .column('expires_at')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_session_revocations').execute();
}

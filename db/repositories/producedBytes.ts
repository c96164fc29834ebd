import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import { usageOf } from './documentCatalog';
import type { UserQuota } from './userQuota';

/**
 * The per-user quota lock (transaction-scoped): uploads inserting a document and parses recording
 * what a document produced take it, so every quota check reads the usage its change is added to.
 */
export async function lockUserQuota(trx: Kysely<Database>, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`documents:upload:${userId}`}, 0))`.execute(trx);
}

export type ProducedBytesOutcome =
  | { outcome: 'recorded' }
  /** Recording them would take the user past the quota; nothing was changed. */
  | { outcome: 'over-quota'; usedBytes: number };

/**
 * Records the markdown bytes a document's parse produced, if the user's quota has room for them
 * besides everything else the user holds. Replaces what an earlier parse of the same document
 * recorded, so a retried CLEANING counts its output once.
 */
export async function recordProducedBytes(
  db: Kysely<Database>,
  scope: { userId: string; documentId: string },
  bytes: number,
  quota: UserQuota,
): Promise<ProducedBytesOutcome> {
  return db.transaction().execute(async (trx): Promise<ProducedBytesOutcome> => {
    await lockUserQuota(trx, scope.userId);
    const document = await trx
      .selectFrom('documents')
      .select('produced_bytes')
      .where('id', '=', scope.documentId)
      .where('user_id', '=', scope.userId)
      .executeTakeFirst();
    const usage = await usageOf(trx, scope.userId);
    const usedBytes = usage.bytes - Number(document?.produced_bytes ?? 0);
    if (usedBytes + bytes > quota.maxBytes) return { outcome: 'over-quota', usedBytes };
    await trx
      .updateTable('documents')
      .set({ produced_bytes: bytes })
      .where('id', '=', scope.documentId)
      .where('user_id', '=', scope.userId)
      .execute();
    return { outcome: 'recorded' };
  });
}

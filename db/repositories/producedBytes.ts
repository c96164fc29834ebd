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

/** What a document produced that its user's quota is charged for: its markdown, and its window vectors. */
export type ChargedColumn = 'produced_bytes' | 'window_bytes';

/**
 * Records `bytes` in the document's `column` if the user's quota has room for them besides
 * everything else the user holds: the markdown a parse produced (`produced_bytes`), or the window
 * vectors VECTORIZING may store (`window_bytes`). Replaces what an earlier attempt of the same
 * document recorded, so a retried stage counts its output once.
 */
export async function recordChargedBytes(
  db: Kysely<Database>,
  scope: { userId: string; documentId: string },
  column: ChargedColumn,
  bytes: number,
  quota: UserQuota,
): Promise<ProducedBytesOutcome> {
  return db.transaction().execute(async (trx): Promise<ProducedBytesOutcome> => {
    await lockUserQuota(trx, scope.userId);
    const document = await trx
      .selectFrom('documents')
      .select(column)
      .where('id', '=', scope.documentId)
      .where('user_id', '=', scope.userId)
      .executeTakeFirst();
    const before = Number((document as Record<ChargedColumn, string> | undefined)?.[column] ?? 0);
    const usedBytes = (await usageOf(trx, scope.userId)).bytes - before;
    if (usedBytes + bytes > quota.maxBytes) return { outcome: 'over-quota', usedBytes };
    await trx
      .updateTable('documents')
      .set({ [column]: bytes })
      .where('id', '=', scope.documentId)
      .where('user_id', '=', scope.userId)
      .execute();
    return { outcome: 'recorded' };
  });
}

/** The markdown bytes a document's parse produced (recordChargedBytes). */
export function recordProducedBytes(
  db: Kysely<Database>,
  scope: { userId: string; documentId: string },
  bytes: number,
  quota: UserQuota,
): Promise<ProducedBytesOutcome> {
  return recordChargedBytes(db, scope, 'produced_bytes', bytes, quota);
}

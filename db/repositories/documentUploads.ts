import type { Kysely } from 'kysely';
import type { Database, DocumentRow, NewDocument } from '../database';
import { usageOf } from './documentCatalog';
import { lockUserQuota } from './producedBytes';

export interface UserQuota {
  maxBytes: number;
  maxDocuments: number;
}

export type UploadInsert =
  | { outcome: 'inserted'; row: DocumentRow }
  /** An ACTIVE document of the same user and dataset has the same content: that one. */
  | { outcome: 'duplicate'; row: DocumentRow }
  /** The row would take the user past the quota; the usage it was checked against. */
  | { outcome: 'over-quota'; usage: { documents: number; bytes: number } };

/**
 * Records an uploaded document unless the dataset already has the same content or the user's
 * quota has no room for it. The quota read before streaming is only an early refusal: uploads of
 * one user run concurrently, and each saw the same remaining quota. Here a transaction-scoped
 * advisory lock per user serialises the final check with the insert, so the usage read is the
 * usage the row is added to, and concurrent uploads of the same content yield one row.
 */
export async function insertWithinQuota(
  db: Kysely<Database>,
  doc: NewDocument,
  quota: UserQuota,
): Promise<UploadInsert> {
  return db.transaction().execute(async (trx): Promise<UploadInsert> => {
    await lockUserQuota(trx, doc.user_id);
    const existing = await trx
      .selectFrom('documents')
      .selectAll()
      .where('user_id', '=', doc.user_id)
      .where('dataset_id', '=', doc.dataset_id)
      .where('content_sha256', '=', doc.content_sha256)
      .where('lifecycle', '=', 'ACTIVE')
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (existing) return { outcome: 'duplicate', row: existing };
    const usage = await usageOf(trx, doc.user_id);
    if (usage.documents + 1 > quota.maxDocuments || usage.bytes + Number(doc.size_bytes) > quota.maxBytes) {
      return { outcome: 'over-quota', usage };
    }
    const row = await trx.insertInto('documents').values(doc).returningAll().executeTakeFirstOrThrow();
    return { outcome: 'inserted', row };
  });
}

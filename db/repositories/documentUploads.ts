import { sql, type Kysely } from 'kysely';
import { ATTACHED_TO } from '../../contracts/mailAttachments';
import type { Database, DocumentRow, NewDocument } from '../database';
import { usageOf } from './documentCatalog';
import { lockUserQuota } from './producedBytes';
import type { UserQuota } from './userQuota';

export type { UserQuota };

export type UploadInsert =
  | { outcome: 'inserted'; row: DocumentRow }
  /**
   * The id is already this user's document in this dataset: an overlapping attempt of the same
   * registration (a retried activity whose first attempt is still copying) got there first.
   */
  | { outcome: 'registered'; row: DocumentRow }
  /** The id belongs to a document of another user or dataset. */
  | { outcome: 'id-taken' }
  /** An ACTIVE document of the same user and dataset has the same content: that one. */
  | { outcome: 'duplicate'; row: DocumentRow }
  /** The row would take the user past the quota; the usage it was checked against. */
  | { outcome: 'over-quota'; usage: { documents: number; bytes: number } };

/**
 * Records an uploaded document unless the dataset already has the same content or the user's
 * quota has no room for it. The quota read before streaming is only an early refusal: uploads of
 * one user run concurrently, and each saw the same remaining quota. Here a transaction-scoped
 * advisory lock per user serialises the final check with the insert, so the usage read is the
 * usage the row is added to, and concurrent uploads of the same content yield one row. The id is
 * looked up first, so an attempt that finds its own registration's row never takes it for a
 * duplicate of itself.
 */
export async function insertWithinQuota(
  db: Kysely<Database>,
  doc: NewDocument,
  quota: UserQuota,
  /** False for an e-mail's attachment: its own document even when the dataset holds the same bytes. */
  dedupe = true,
): Promise<UploadInsert> {
  return db.transaction().execute(async (trx): Promise<UploadInsert> => {
    await lockUserQuota(trx, doc.user_id);
    const same = await trx.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirst();
    if (same) {
      const ours = same.user_id === doc.user_id && same.dataset_id === doc.dataset_id;
      return ours ? { outcome: 'registered', row: same } : { outcome: 'id-taken' };
    }
    const existing = !dedupe
      ? undefined
      : await trx
          .selectFrom('documents')
          .selectAll()
          .where('user_id', '=', doc.user_id)
          .where('dataset_id', '=', doc.dataset_id)
          .where('content_sha256', '=', doc.content_sha256)
          .where('lifecycle', '=', 'ACTIVE')
          // An e-mail's attachment goes with its message: nothing else is answered with it.
          .where(sql<boolean>`NOT (metadata ? ${ATTACHED_TO})`)
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

/**
 * Whether the document row names this object as its source: such an object is never removed.
 * Source keys are built from the document id (stores/objectKeys.ts), so only that row can name it.
 */
export async function isSourceOfDocument(db: Kysely<Database>, documentId: string, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('id', '=', documentId)
    .where('source_object_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

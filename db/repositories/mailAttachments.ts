import { sql, type Kysely } from 'kysely';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import { ATTACHED_TO, MAIL_ATTACHMENTS, withMailFields } from '../../contracts/mailAttachments';
import type { Database } from '../database';

/**
 * Replaces the `mail.*` fields of a mail file's document with what its latest parse found
 * (withMailFields), under the row lock (a metadata PATCH is never lost), and counts the metadata
 * version up so every store's copy is written again.
 */
export async function setMailFields(db: Kysely<Database>, documentId: string, fields: DocumentMetadata): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('documents')
      .select('metadata')
      .where('id', '=', documentId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return;
    const next = withMailFields(row.metadata, fields);
    await trx
      .updateTable('documents')
      .set({
        metadata: JSON.stringify(next),
        metadata_version: sql<number>`metadata_version + 1`,
        metadata_updated_at: sql<Date>`now()`,
      })
      .where('id', '=', documentId)
      .execute();
  });
}

/** The attachments a message's document lists now (`mail.attachments`). */
export async function listedAttachments(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const row = await db.selectFrom('documents').select('metadata').where('id', '=', documentId).executeTakeFirst();
  const listed = row?.metadata[MAIL_ATTACHMENTS];
  return Array.isArray(listed) ? listed : [];
}

export interface AttachedDocument {
  id: string;
  lastTaskId: string | null;
  lifecycle: string;
}

/** The documents of the user's dataset attached to the message (`attachedTo`), at most `limit`, by id. */
export async function attachedDocuments(
  db: Kysely<Database>,
  scope: { userId: string; datasetId: string },
  messageId: string,
  limit: number,
): Promise<AttachedDocument[]> {
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'last_task_id', 'lifecycle'])
    .where('user_id', '=', scope.userId)
    .where('dataset_id', '=', scope.datasetId)
    .where(sql<string>`metadata ->> ${ATTACHED_TO}`, '=', messageId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, lastTaskId: r.last_task_id, lifecycle: r.lifecycle }));
}

import type { Kysely } from 'kysely';
import type { Database, DocumentRow, NewDocument } from '../database';

export async function insertDocument(db: Kysely<Database>, doc: NewDocument): Promise<DocumentRow> {
  return db.insertInto('documents').values(doc).returningAll().executeTakeFirstOrThrow();
}

export async function findDocument(db: Kysely<Database>, documentId: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', documentId).executeTakeFirst();
}

/** Row lock for the take-over transaction: concurrent starts and retries of one document queue here. */
export async function lockDocument(db: Kysely<Database>, documentId: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', documentId).forUpdate().executeTakeFirst();
}

export async function listDocuments(
  db: Kysely<Database>,
  scope: { userId: string; datasetId: string },
): Promise<DocumentRow[]> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('user_id', '=', scope.userId)
    .where('dataset_id', '=', scope.datasetId)
    .orderBy('created_at')
    .execute();
}

/** Which of these ids have a documents row (of any lifecycle): the orphan sweep keeps their objects. */
export async function existingDocumentIds(db: Kysely<Database>, documentIds: string[]): Promise<Set<string>> {
  if (documentIds.length === 0) return new Set();
  const rows = await db.selectFrom('documents').select('id').where('id', 'in', documentIds).execute();
  return new Set(rows.map((r) => r.id));
}

/** Search stops returning the document once it is DELETING. Undefined: the document is gone. */
/**
 * Marks the document DELETING when it is the named owner's (and dataset's, when one is named).
 * 'gone' when no such document exists, 'not-owned' when it is someone else's: then nothing changes.
 */
export async function markDocumentDeleting(
  db: Kysely<Database>,
  documentId: string,
  owner: { userId: string; datasetId?: string } | null,
): Promise<Pick<DocumentRow, 'id' | 'user_id' | 'dataset_id'> | 'gone' | 'not-owned'> {
  let update = db
    .updateTable('documents')
    .set({ lifecycle: 'DELETING', updated_at: new Date() })
    .where('id', '=', documentId);
  if (owner) update = update.where('user_id', '=', owner.userId);
  if (owner?.datasetId !== undefined) update = update.where('dataset_id', '=', owner.datasetId);
  const marked = await update.returning(['id', 'user_id', 'dataset_id']).executeTakeFirst();
  if (marked) return marked;
  return (await findDocument(db, documentId)) ? 'not-owned' : 'gone';
}

/** The document's rows, its outbox included, in one transaction; cascades to tasks and chunks. */
export async function deleteDocumentRows(db: Kysely<Database>, documentId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('notifications').where('document_id', '=', documentId).execute();
    await trx.deleteFrom('documents').where('id', '=', documentId).execute();
  });
}

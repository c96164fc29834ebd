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

export async function setLastTask(db: Kysely<Database>, documentId: string, taskId: string): Promise<void> {
  await db
    .updateTable('documents')
    .set({ last_task_id: taskId, updated_at: new Date() })
    .where('id', '=', documentId)
    .execute();
}

export async function setDocumentFileType(db: Kysely<Database>, documentId: string, fileType: string): Promise<void> {
  await db.updateTable('documents').set({ file_type: fileType, updated_at: new Date() }).where('id', '=', documentId).execute();
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

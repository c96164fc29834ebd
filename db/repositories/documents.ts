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

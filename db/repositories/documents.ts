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

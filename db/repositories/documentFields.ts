import { sql, type Kysely } from 'kysely';
import type { DocumentFieldValues } from '../../contracts/documentFields';
import {
  applyMetadataPatch,
  metadataProblem,
  type DocumentMetadata,
  type MetadataPatch,
} from '../../contracts/documentMetadata';
import type { Database } from '../database';

const FIELD_COLUMNS = [
  'id',
  'file_name',
  'file_type',
  'language',
  'page_count',
  'source',
  'created_at',
  'metadata',
  'metadata_version',
  'metadata_updated_at',
] as const;

type FieldRow = {
  id: string;
  file_name: string;
  file_type: string | null;
  language: string | null;
  page_count: number | null;
  source: string;
  created_at: Date;
  metadata: DocumentMetadata;
  metadata_version: number;
  metadata_updated_at: Date;
};

function valuesOf(row: FieldRow): DocumentFieldValues {
  return {
    version: row.metadata_version,
    metadata: row.metadata,
    system: {
      documentId: row.id,
      fileName: row.file_name,
      fileType: row.file_type,
      language: row.language,
      pageCount: row.page_count,
      source: row.source,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.metadata_updated_at.toISOString(),
    },
  };
}

/**
 * What filters test of the document (contracts/documentFields.ts) and whose it is; null when it
 * does not exist.
 */
export async function documentFieldValues(
  db: Kysely<Database>,
  documentId: string,
): Promise<{ values: DocumentFieldValues; scope: { userId: string; datasetId: string } } | null> {
  const row = await db
    .selectFrom('documents')
    .select([...FIELD_COLUMNS, 'user_id', 'dataset_id'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  return row ? { values: valuesOf(row), scope: { userId: row.user_id, datasetId: row.dataset_id } } : null;
}

/** The fields of each of the user's documents named, for hits. */
export async function fieldValuesOfDocuments(
  db: Kysely<Database>,
  userId: string,
  documentIds: string[],
): Promise<Map<string, DocumentFieldValues>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents')
    .select(FIELD_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', sql<string>`ANY(${[...new Set(documentIds)]}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, valuesOf(row)]));
}

export class MetadataInvalid extends Error {
  override readonly name = 'MetadataInvalid';
}

/**
 * Applies a metadata change to the user's document, under its row lock so that two changes never
 * lose one another: the version goes up by one and updatedAt moves. Returns the new fields, or null
 * when the user has no such document (or it is being deleted); throws MetadataInvalid when the
 * result would break the bounds (nothing changes then).
 */
export async function patchDocumentMetadata(
  db: Kysely<Database>,
  scope: { userId: string },
  documentId: string,
  patch: MetadataPatch,
): Promise<DocumentFieldValues | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('documents')
      .select(['metadata', 'dataset_id'])
      .where('id', '=', documentId)
      .where('user_id', '=', scope.userId)
      .where('lifecycle', '=', 'ACTIVE')
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    const next = applyMetadataPatch(row.metadata, patch);
    const problem = metadataProblem(next);
    if (problem) throw new MetadataInvalid(problem);
    const updated = await trx
      .updateTable('documents')
      .set({
        metadata: JSON.stringify(next),
        metadata_version: sql<number>`metadata_version + 1`,
        metadata_updated_at: sql<Date>`now()`,
      })
      .where('id', '=', documentId)
      .returning(FIELD_COLUMNS)
      .executeTakeFirstOrThrow();
    return valuesOf(updated);
  });
}

/**
 * What the latest parse found of the document (system fields): its page count and language. The
 * metadata version is not moved: the stages that write copies run after the parse and copy these.
 */
export async function setParseFacts(
  db: Kysely<Database>,
  documentId: string,
  facts: { pageCount: number | null; language: string },
): Promise<void> {
  await db
    .updateTable('documents')
    .set({ page_count: facts.pageCount, language: facts.language })
    .where('id', '=', documentId)
    .execute();
}

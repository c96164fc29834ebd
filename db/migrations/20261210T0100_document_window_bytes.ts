import type { Kysely } from 'kysely';

// The second dense vector's passage windows count against their user's quota beside the upload and
// its markdown: the bytes of the window vectors VECTORIZING may store for the document, charged at
// its cap before the first window is embedded. 0 for a document without windows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('window_bytes', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('window_bytes').execute();
}

import { sql, type Kysely } from 'kysely';

// What a model wrote in CLEANING for one piece of a document (an image's description,
// a repaired table), keyed by the digest of what it was given: the row is the checkpoint, so a
// new attempt or a retried task never asks the model again for the same image or table.
// `output` null: the model's answer was refused (the original stays).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cleaning_enrichments')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image', 'table')`))
    .addColumn('input_sha256', 'text', (c) => c.notNull())
    .addColumn('output', 'text')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('cleaning_enrichments_pk', ['document_id', 'kind', 'input_sha256'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cleaning_enrichments').execute();
}

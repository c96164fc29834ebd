import type { Kysely } from 'kysely';

// Which model and dimension made each chunk's dense vector, so a model change can find the
// documents whose vectors are stale without asking the vector store.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chunks')
    .addColumn('embedding_model', 'text')
    .addColumn('embedding_dimension', 'integer')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chunks').dropColumn('embedding_model').dropColumn('embedding_dimension').execute();
}

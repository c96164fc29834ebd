import type { Kysely } from 'kysely';

// A parent chunk records the chunk_index range of its children, so answer assembly can fetch a
// hit's siblings or its whole section with one range query instead of walking parent_id.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chunks')
    .addColumn('child_first_index', 'integer')
    .addColumn('child_last_index', 'integer')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chunks').dropColumn('child_first_index').dropColumn('child_last_index').execute();
}

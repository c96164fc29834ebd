import type { Kysely } from 'kysely';

// What a document produced counts against its user's quota as its upload does: the markdown its
// latest parse wrote (a 53 KB workbook can stand for megabytes of text). 0 until CLEANING records it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('produced_bytes', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('produced_bytes').execute();
}

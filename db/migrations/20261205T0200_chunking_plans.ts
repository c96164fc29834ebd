import { sql, type Kysely } from 'kysely';

// The chunking plan of each task (WAIT_CONFIRM → CONFIRMED → EXECUTED, with its reason
// and a short preview), and the strategy a document was given at upload, which the plan honours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chunking_plans')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('parameters', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('recommended', 'jsonb', (c) => c.notNull())
    .addColumn('review', 'text', (c) => c.notNull())
    .addColumn('preview', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('executed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('chunking_plans_document_idx').on('chunking_plans').column('document_id').execute();
  await db.schema.alterTable('documents').addColumn('chunking_choice', 'jsonb').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('chunking_choice').execute();
  await db.schema.dropTable('chunking_plans').execute();
}

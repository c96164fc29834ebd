import { sql, type Kysely } from 'kysely';

// The remote task an external parsing service runs for a task, so a new attempt of
// CLEANING polls that task again instead of creating a second one; per-user chat and vision
// models (keys sealed like embedding_configs'); and the keywords and questions a chat model
// wrote for a chunk, keyed by the chunk's content-derived id: the row is the checkpoint.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('parse_tasks')
    .addColumn('remote_parse_task_id', 'text')
    .addColumn('remote_parse_started_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('model_configs')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('chat', 'vision')`))
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('api_key_encrypted', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('model_configs_pk', ['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('chunk_enrichments')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('keywords', sql`text[]`, (c) => c.notNull())
    .addColumn('questions', sql`text[]`, (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('chunk_enrichments_document_idx').on('chunk_enrichments').column('document_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chunk_enrichments').execute();
  await db.schema.dropTable('model_configs').execute();
  await db.schema
    .alterTable('parse_tasks')
    .dropColumn('remote_parse_task_id')
    .dropColumn('remote_parse_started_at')
    .execute();
}

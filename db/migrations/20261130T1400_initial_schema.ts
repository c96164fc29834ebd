import { sql, type Kysely } from 'kysely';

const STAGE_PREFIXES = ['cleaning', 'chunking', 'vectorizing', 'pretokenize', 'keyword_indexing', 'sparse_vectorizing'];
const STATUS_CHECK = "IN ('PENDING','PROCESSING','SUCCESS','FAILED')";

// Migrations are frozen history: they use Kysely<any> so later schema types cannot break them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_type', 'text')
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('content_sha256', 'text', (c) => c.notNull())
    .addColumn('source_object_key', 'text', (c) => c.notNull())
    .addColumn('lifecycle', 'text', (c) =>
      c
        .notNull()
        .defaultTo('ACTIVE')
        .check(sql`lifecycle IN ('ACTIVE','DELETING')`),
    )
    .addColumn('last_task_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('documents_tenant_idx').on('documents').columns(['user_id', 'dataset_id']).execute();
  await db.schema
    .createIndex('documents_content_idx')
    .on('documents')
    .columns(['user_id', 'dataset_id', 'content_sha256'])
    .execute();

  await db.schema
    .createTable('parse_tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('retry_of_task_id', 'text')
    // The Temporal run chain that owns this task (firstExecutionRunId survives activity retries
    // and Web UI resets), so a re-executed prepareTask is told apart from a duplicate start.
    .addColumn('owner_run_chain', 'text', (c) => c.notNull())
    .addColumn('detected_type', 'text')
    .addColumn('markdown_object_key', 'text')
    .addColumn('token_plan_object_key', 'text')
    .addColumn('parse_ms', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('parse_tasks_document_idx').on('parse_tasks').column('document_id').execute();

  let pipelines = db.schema
    .createTable('pipelines')
    .addColumn('task_id', 'text', (c) => c.primaryKey().references('parse_tasks.task_id').onDelete('cascade'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('pipeline_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql.raw(`pipeline_status ${STATUS_CHECK}`)),
    );
  for (const prefix of STAGE_PREFIXES) {
    pipelines = pipelines
      .addColumn(`${prefix}_status`, 'text', (c) =>
        c
          .notNull()
          .defaultTo('PENDING')
          .check(sql.raw(`${prefix}_status ${STATUS_CHECK}`)),
      )
      .addColumn(`${prefix}_started_at`, 'timestamptz')
      .addColumn(`${prefix}_ms`, 'integer');
  }
  await pipelines
    .addColumn('failed_stage', 'text')
    .addColumn('recover_from_stage', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_reason', 'varchar(512)')
    .addColumn('superseded_by_task_id', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('pipelines_document_idx').on('pipelines').column('document_id').execute();
  await db.schema.createIndex('pipelines_status_idx').on('pipelines').column('pipeline_status').execute();

  await db.schema
    .createTable('chunks')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('parent','child')`))
    .addColumn('parent_id', 'text')
    .addColumn('section_path', sql`text[]`, (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('char_count', 'integer', (c) => c.notNull())
    .addColumn('token_count', 'integer', (c) => c.notNull())
    .addColumn('dense_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql.raw(`dense_status ${STATUS_CHECK}`)),
    )
    .addColumn('sparse_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql.raw(`sparse_status ${STATUS_CHECK}`)),
    )
    .addColumn('keyword_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql.raw(`keyword_status ${STATUS_CHECK}`)),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('chunks_document_index_key', ['document_id', 'chunk_index'])
    .execute();
  await db.schema.createIndex('chunks_tenant_idx').on('chunks').columns(['user_id', 'dataset_id']).execute();

  await db.schema
    .createTable('embedding_configs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dimension', 'integer', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('api_key_encrypted', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX embedding_configs_one_default ON embedding_configs (user_id) WHERE is_default`.execute(
    db,
  );

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status IN ('PENDING','DELIVERED','FAILED')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_code', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addUniqueConstraint('notifications_task_event_key', ['task_id', 'event'])
    .execute();

  // The embedded-default stores (docs/design.md §6): vectors and keyword entries in Postgres.
  await db.schema
    .createTable('dense_vectors')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dimension', 'integer', (c) => c.notNull())
    .addColumn('vector', sql`real[]`, (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('dense_vectors_tenant_idx')
    .on('dense_vectors')
    .columns(['user_id', 'dataset_id'])
    .execute();
  await db.schema.createIndex('dense_vectors_document_idx').on('dense_vectors').column('document_id').execute();

  await db.schema
    .createTable('sparse_vectors')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('indices', sql`integer[]`, (c) => c.notNull())
    .addColumn('weights', sql`real[]`, (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sparse_vectors_tenant_idx')
    .on('sparse_vectors')
    .columns(['user_id', 'dataset_id'])
    .execute();
  await db.schema.createIndex('sparse_vectors_document_idx').on('sparse_vectors').column('document_id').execute();
  // Lets a sparse query find candidate chunks by term id instead of scanning the dataset.
  await sql`CREATE INDEX sparse_vectors_indices_gin ON sparse_vectors USING gin (indices)`.execute(db);

  await db.schema
    .createTable('keyword_entries')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('tokens', 'text', (c) => c.notNull())
    .addColumn('tsv', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('simple', tokens)`).stored())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('keyword_entries_tenant_idx')
    .on('keyword_entries')
    .columns(['user_id', 'dataset_id'])
    .execute();
  await db.schema.createIndex('keyword_entries_document_idx').on('keyword_entries').column('document_id').execute();
  await sql`CREATE INDEX keyword_entries_tsv_gin ON keyword_entries USING gin (tsv)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'keyword_entries',
    'sparse_vectors',
    'dense_vectors',
    'notifications',
    'embedding_configs',
    'chunks',
    'pipelines',
    'parse_tasks',
    'documents',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

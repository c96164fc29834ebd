import { sql, type Kysely } from 'kysely';

/**
 * Chunk sets per generation, so a rebuild can stage a document's new chunks beside the ones search
 * serves and switch between them in one statement (docs/rebuild.md):
 * - chunks.generation: which chunk set of its document a row belongs to (0: the first build);
 *   (document, chunk_index) is unique per generation, no longer per document.
 * - chunks.text_sha256: the hash of the embedded text, how a rebuild finds a vector to reuse.
 * - chunks.vector_reused: the dense vector was copied from an older generation, not embedded.
 * - documents.index_generation: the generation search serves; documents.index_task_id: the task
 *   whose success last built (or switched) the document's index.
 * - parse_tasks.chunk_generation: the generation a task's stages build; parse_tasks.chunking_plan:
 *   the plan it chunks with (null: the deployment's chunker settings).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chunks')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text_sha256', 'bytea')
    .addColumn('vector_reused', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('chunks').dropConstraint('chunks_document_index_key').execute();
  await db.schema
    .alterTable('chunks')
    .addUniqueConstraint('chunks_document_generation_index_key', ['document_id', 'generation', 'chunk_index'])
    .execute();
  await db.schema
    .alterTable('documents')
    .addColumn('index_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('index_task_id', 'text')
    .execute();
  await db.schema
    .alterTable('parse_tasks')
    .addColumn('chunk_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chunking_plan', 'jsonb')
    .execute();
  // A succeeded document built its index with its latest task.
  await sql`
    UPDATE documents d SET index_task_id = d.last_task_id
      FROM pipelines p
     WHERE p.task_id = d.last_task_id AND p.pipeline_status = 'SUCCESS'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // Only the served generation survives a downgrade: the old key allows one chunk set per document.
  await sql`
    DELETE FROM chunks c USING documents d
     WHERE d.id = c.document_id AND c.generation <> d.index_generation`.execute(db);
  await db.schema.alterTable('chunks').dropConstraint('chunks_document_generation_index_key').execute();
  await db.schema
    .alterTable('chunks')
    .addUniqueConstraint('chunks_document_index_key', ['document_id', 'chunk_index'])
    .execute();
  await db.schema
    .alterTable('chunks')
    .dropColumn('generation')
    .dropColumn('text_sha256')
    .dropColumn('vector_reused')
    .execute();
  await db.schema.alterTable('documents').dropColumn('index_generation').dropColumn('index_task_id').execute();
  await db.schema.alterTable('parse_tasks').dropColumn('chunk_generation').dropColumn('chunking_plan').execute();
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/**
 * The document serves the task's chunk set and records the task as the one that built its index.
 * For a first ingest, a retry or a re-embed the generation does not change; for a rebuild or a
 * replacement this is the atomic switch: the old set stops being served in the statement that
 * starts serving the new. A replacement's new source becomes the document's in the same statement
 * (key, hash, size, name), and the source it replaced is recorded on the task for the clean-up
 * (staleSourceKeys). Called inside the transaction of the last stage's success. `before` reads the
 * statement's snapshot, the document as it was (no FOR UPDATE: a row this statement updates would
 * be skipped by the lock, which is how the first version of this lost the replaced key).
 */
export async function switchServedIndex(db: Kysely<Database>, taskId: string): Promise<void> {
  await sql`
    WITH before AS (
      SELECT d.id, d.source_object_key FROM documents d JOIN parse_tasks t ON t.document_id = d.id
       WHERE t.task_id = ${taskId}
    ), replaced AS (
      UPDATE parse_tasks t SET replaced_source_object_key = b.source_object_key
        FROM before b
       WHERE t.task_id = ${taskId} AND t.source_object_key IS NOT NULL
         AND t.source_object_key <> b.source_object_key
    )
    UPDATE documents d SET index_generation = t.chunk_generation, index_task_id = t.task_id, updated_at = now(),
           source_object_key = coalesce(t.source_object_key, d.source_object_key),
           content_sha256 = coalesce(t.source_sha256, d.content_sha256),
           size_bytes = coalesce(t.source_size_bytes, d.size_bytes),
           file_name = coalesce(t.source_file_name, d.file_name)
      FROM parse_tasks t
     WHERE t.task_id = ${taskId} AND d.id = t.document_id`.execute(db);
}

/**
 * Source objects of the document that no longer hold its content: those a replacement's success
 * replaced, and the new sources of replacements that were themselves replaced or taken over
 * before they succeeded. The document's own and those of open tasks are never listed.
 */
export async function staleSourceKeys(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT DISTINCT k.key FROM parse_tasks t
      JOIN pipelines p ON p.task_id = t.task_id
      JOIN documents d ON d.id = t.document_id
     CROSS JOIN LATERAL (VALUES (t.replaced_source_object_key), (t.source_object_key)) AS k(key)
     WHERE t.document_id = ${documentId} AND k.key IS NOT NULL AND k.key <> d.source_object_key
       AND (k.key = t.replaced_source_object_key
            OR p.superseded_by_task_id IS NOT NULL OR p.pipeline_status = 'SUCCESS')
       AND NOT EXISTS (
         SELECT 1 FROM parse_tasks o JOIN pipelines op ON op.task_id = o.task_id
          WHERE o.document_id = t.document_id AND o.source_object_key = k.key
            AND op.superseded_by_task_id IS NULL AND op.pipeline_status IN ('PENDING', 'PROCESSING', 'FAILED'))`.execute(
    db,
  );
  return rows.map((r) => r.key);
}

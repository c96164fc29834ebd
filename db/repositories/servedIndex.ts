import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/**
 * The document serves the task's chunk set and records the task as the one that built its index.
 * For a first ingest, a retry or a re-embed the generation does not change; for a rebuild this is
 * the atomic switch: the old set stops being served in the statement that starts serving the new.
 */
export async function switchServedIndex(db: Kysely<Database>, taskId: string): Promise<void> {
  await sql`
    UPDATE documents d SET index_generation = t.chunk_generation, index_task_id = t.task_id, updated_at = now()
      FROM parse_tasks t
     WHERE t.task_id = ${taskId} AND d.id = t.document_id`.execute(db);
}

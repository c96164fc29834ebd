import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/**
 * Generations of a document's chunk set (docs/rebuild.md). A rebuild stages its chunks as a new
 * generation beside the served one (documents.index_generation); the success of its last stage
 * switches the served generation in the same statement (stageTransitions.ts), and then the
 * generations below it are retired: their vectors and entries removed, then their rows.
 */

/** The generation a rebuild of the document builds: above every generation it has or serves. */
export async function nextGeneration(db: Kysely<Database>, documentId: string): Promise<number> {
  const row = await db
    .selectFrom('documents')
    .select((eb) => [
      'index_generation',
      eb
        .selectFrom('chunks')
        .select((c) => c.fn.max('generation').as('g'))
        .where('document_id', '=', documentId)
        .as('highest'),
    ])
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  return Math.max(row.index_generation, Number(row.highest ?? 0)) + 1;
}

/** Ids of the chunks of generations below the served one: search no longer returns them. */
export async function retiredChunkIds(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select('chunks.chunk_id')
    .where('chunks.document_id', '=', documentId)
    .whereRef('chunks.generation', '<', 'documents.index_generation')
    .execute();
  return rows.map((r) => r.chunk_id);
}

/** Ids of the served set's children: the keyword entries that stay once the old sets are retired. */
export async function servedChunkIds(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select('chunks.chunk_id')
    .where('chunks.document_id', '=', documentId)
    .whereRef('chunks.generation', '>=', 'documents.index_generation')
    .where('chunks.kind', '=', 'child')
    .execute();
  return rows.map((r) => r.chunk_id);
}

/**
 * The rows of retired generations; the last step of retiring, after their vectors and entries.
 * Their enrichments go in the same statement: keyed by chunk id, they only cascade when the whole
 * document is deleted, so a rebuild left them behind.
 */
export async function deleteRetiredChunks(db: Kysely<Database>, documentId: string): Promise<number> {
  const result = await sql<{ removed: string }>`
    WITH retired AS (
      DELETE FROM chunks c USING documents d
       WHERE d.id = c.document_id AND c.document_id = ${documentId} AND c.generation < d.index_generation
      RETURNING c.chunk_id),
    enrichments AS (
      DELETE FROM chunk_enrichments e USING retired r WHERE e.chunk_id = r.chunk_id AND e.document_id = ${documentId})
    SELECT count(*) AS removed FROM retired`.execute(db);
  return Number(result.rows[0]?.removed ?? 0);
}

/**
 * Documents that still hold a retired generation: what a crash between a rebuild's switch and its
 * clean-up leaves (the orphan sweep finishes it). Active documents only: deletion removes the rest.
 */
export async function documentsWithRetiredChunks(
  db: Kysely<Database>,
  limit: number,
): Promise<{ documentId: string; userId: string; datasetId: string }[]> {
  const rows = await db
    .selectFrom('documents as d')
    .select(['d.id', 'd.user_id', 'd.dataset_id'])
    .where('d.lifecycle', '=', 'ACTIVE')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('chunks as c')
          .select('c.chunk_id')
          .whereRef('c.document_id', '=', 'd.id')
          .whereRef('c.generation', '<', 'd.index_generation'),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ documentId: r.id, userId: r.user_id, datasetId: r.dataset_id }));
}

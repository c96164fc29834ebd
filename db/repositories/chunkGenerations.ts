import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import { anyOf, type ChunkSet } from './chunks';

/** The model that made a vector (stores/ports.ts EmbeddingModelRef, which db/ does not import). */
interface EmbeddingModel {
  model: string;
  dimension: number;
}

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

/** A new chunk whose embedded text an older chunk of the same document had, and that chunk. */
export interface ReusableVector {
  toChunkId: string;
  fromChunkId: string;
}

/**
 * The set's children still without a dense vector whose text hash equals that of a child of
 * another generation embedded by `model`: their vectors can be copied instead of embedded. Rows
 * written before the hash column existed get their hash computed here.
 *
 * One pass over the document's children, grouped by hash with a window, rather than a join of
 * the table with itself: right after a large generation is written its statistics are stale, and
 * the planner then chose a nested loop of sequential scans (115 s for a 13,000-child CSV). A
 * first ingestion, which has no other generation, stops at one index probe.
 */
export async function reusableVectors(
  db: Kysely<Database>,
  set: ChunkSet,
  model: EmbeddingModel,
): Promise<ReusableVector[]> {
  const other = await db
    .selectFrom('chunks')
    .select('chunk_id')
    .where('document_id', '=', set.documentId)
    .where('generation', '<>', set.generation)
    .limit(1)
    .executeTakeFirst();
  if (other === undefined) return [];
  const { rows } = await sql<{ to_chunk_id: string; from_chunk_id: string }>`
    WITH children AS MATERIALIZED (
      SELECT chunk_id, generation,
             coalesce(text_sha256, sha256(convert_to(text, 'UTF8'))) AS h,
             (generation <> ${set.generation} AND dense_status = 'SUCCESS'
               AND embedding_model = ${model.model} AND embedding_dimension = ${model.dimension}) AS is_source,
             (generation = ${set.generation} AND dense_status <> 'SUCCESS') AS is_target
        FROM chunks
       WHERE document_id = ${set.documentId} AND kind = 'child'
    ), ranked AS (
      SELECT chunk_id, is_target,
             first_value(CASE WHEN is_source THEN chunk_id END)
               OVER (PARTITION BY h ORDER BY is_source DESC, generation DESC) AS from_chunk_id
        FROM children
    )
    SELECT chunk_id AS to_chunk_id, from_chunk_id
      FROM ranked
     WHERE is_target AND from_chunk_id IS NOT NULL`.execute(db);
  return rows.map((r) => ({ toChunkId: r.to_chunk_id, fromChunkId: r.from_chunk_id }));
}

/** Dense SUCCESS by a copied vector (guarded like markDenseEmbedded: a SUCCESS row is not touched). */
export async function markDenseReused(
  db: Kysely<Database>,
  chunkIds: string[],
  model: EmbeddingModel,
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const result = await db
    .updateTable('chunks')
    .set({
      dense_status: 'SUCCESS',
      vector_reused: true,
      embedding_model: model.model,
      embedding_dimension: model.dimension,
    })
    .where('chunk_id', '=', anyOf(chunkIds))
    .where('dense_status', 'in', ['PENDING', 'PROCESSING', 'FAILED'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
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

import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import { anyOf, type ChunkSet } from './chunks';

/** The model that made a vector (stores/ports.ts EmbeddingModelRef, which db/ does not import). */
interface EmbeddingModel {
  model: string;
  dimension: number;
}

/** A new chunk whose embedded text an older chunk of the same document had, and that chunk. */
export interface ReusableVector {
  toChunkId: string;
  fromChunkId: string;
}

/**
 * Which vector a reuse copies: the first dense vector (its model and dimension are on the chunk
 * row), or the second with its passage windows (the model of the chunk's language).
 */
export type ReusedKind = 'dense' | 'language';

function sourceAndTarget(kind: ReusedKind, generation: number, model: EmbeddingModel) {
  return kind === 'dense'
    ? {
        isSource: sql`(generation <> ${generation} AND dense_status = 'SUCCESS'
               AND embedding_model = ${model.model} AND embedding_dimension = ${model.dimension})`,
        isTarget: sql`(generation = ${generation} AND dense_status <> 'SUCCESS')`,
      }
    : {
        isSource: sql`(generation <> ${generation} AND language_dense_status = 'SUCCESS'
               AND language_embedding_model = ${model.model})`,
        isTarget: sql`(generation = ${generation} AND language_dense_status <> 'SUCCESS')`,
      };
}

/**
 * The set's children still without the `kind` vector whose text hash equals that of a child of
 * another generation embedded by `model`: their vectors can be copied instead of embedded (a
 * rebuild, or a replacement of the document's content whose chunks kept their text). Rows written
 * before the hash column existed get their hash computed here.
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
  kind: ReusedKind = 'dense',
): Promise<ReusableVector[]> {
  const other = await db
    .selectFrom('chunks')
    .select('chunk_id')
    .where('document_id', '=', set.documentId)
    .where('generation', '<>', set.generation)
    .limit(1)
    .executeTakeFirst();
  if (other === undefined) return [];
  const { isSource, isTarget } = sourceAndTarget(kind, set.generation, model);
  const { rows } = await sql<{ to_chunk_id: string; from_chunk_id: string }>`
    WITH children AS MATERIALIZED (
      SELECT chunk_id, generation,
             coalesce(text_sha256, sha256(convert_to(text, 'UTF8'))) AS h,
             ${isSource} AS is_source, ${isTarget} AS is_target
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

/** The second dense vector's SUCCESS by a copy (never from SUCCESS, like markLanguageDenseEmbedded). */
export async function markLanguageDenseReused(
  db: Kysely<Database>,
  chunkIds: string[],
  model: EmbeddingModel,
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const result = await db
    .updateTable('chunks')
    .set({ language_dense_status: 'SUCCESS', language_vector_reused: true, language_embedding_model: model.model })
    .where('chunk_id', '=', anyOf(chunkIds))
    .where('language_dense_status', '!=', 'SUCCESS')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

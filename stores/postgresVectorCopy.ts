import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { DenseCopy, EmbeddingModelRef, TenantScope } from './ports';

/** Copies per statement: the vectors never leave Postgres. */
const COPY_BATCH = 200;

function columnsOf(batch: DenseCopy[]) {
  return sql`unnest(${batch.map((c) => c.fromChunkId)}::text[], ${batch.map((c) => c.toChunkId)}::text[],
                    ${batch.map((c) => c.documentId)}::text[]) AS c(from_id, to_id, document_id)`;
}

/**
 * Gives each target the vector `model` made for its source in `table` (one row per chunk), the
 * tenant's own rows only; returns the targets that got one. Upserts like a write of the vector.
 */
export async function copyDenseRows(
  db: Kysely<Database>,
  table: 'dense_vectors' | 'language_dense_vectors',
  scope: TenantScope,
  model: EmbeddingModelRef,
  copies: DenseCopy[],
): Promise<string[]> {
  const copied: string[] = [];
  for (let i = 0; i < copies.length; i += COPY_BATCH) {
    const batch = copies.slice(i, i + COPY_BATCH);
    const { rows } = await sql<{ chunk_id: string }>`
      INSERT INTO ${sql.table(table)} (chunk_id, document_id, user_id, dataset_id, model, dimension, vector)
      SELECT c.to_id, c.document_id, v.user_id, v.dataset_id, v.model, v.dimension, v.vector
        FROM ${columnsOf(batch)}
        JOIN ${sql.table(table)} v ON v.chunk_id = c.from_id
       WHERE v.user_id = ${scope.userId} AND v.dataset_id = ${scope.datasetId}
         AND v.model = ${model.model} AND v.dimension = ${model.dimension}
      ON CONFLICT (chunk_id) DO UPDATE SET vector = excluded.vector, model = excluded.model,
                                           dimension = excluded.dimension, updated_at = now()
      RETURNING chunk_id`.execute(db);
    copied.push(...rows.map((r) => r.chunk_id));
  }
  return copied;
}

/**
 * Each target's passage windows become a copy of its source's (`<chunk id>#<n>` keeps its n), in
 * place of any it had, in one transaction per batch: a chunk never shows two sets of windows.
 */
export async function copyWindowRows(
  db: Kysely<Database>,
  scope: TenantScope,
  model: EmbeddingModelRef,
  copies: DenseCopy[],
): Promise<void> {
  for (let i = 0; i < copies.length; i += COPY_BATCH) {
    const batch = copies.slice(i, i + COPY_BATCH);
    await db.transaction().execute(async (trx) => {
      await sql`DELETE FROM window_dense_vectors
                 WHERE chunk_id = ANY(${batch.map((c) => c.toChunkId)}::text[])
                   AND user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}`.execute(trx);
      await sql`
        INSERT INTO window_dense_vectors (window_id, chunk_id, document_id, user_id, dataset_id, model, dimension, vector)
        SELECT c.to_id || substr(w.window_id, length(c.from_id) + 1), c.to_id, c.document_id,
               w.user_id, w.dataset_id, w.model, w.dimension, w.vector
          FROM ${columnsOf(batch)}
          JOIN window_dense_vectors w ON w.chunk_id = c.from_id
         WHERE w.user_id = ${scope.userId} AND w.dataset_id = ${scope.datasetId}
           AND w.model = ${model.model} AND w.dimension = ${model.dimension}`.execute(trx);
    });
  }
}

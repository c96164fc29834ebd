import { sql, type Kysely } from 'kysely';
import { windowId } from '../chunker/passageWindows';
import type { Database } from '../db/database';
import { assertVectorsFit } from './dimensionMismatch';
import type { EmbeddingModelRef, PassageWindowRecord, TenantScope } from './ports';
import type { DenseCellContext } from './postgresDenseTable';
import { writeWithCells } from './postgresDenseCells';

/** Chunks per transaction: their windows (up to a dozen each) go in one insert. */
const CHUNKS_PER_WRITE = 100;

/**
 * Writes each record's windows in place of every window its chunk had, of any model, in one
 * transaction per batch: a chunk never shows windows of two models or of two embeddings at once,
 * and a chunk whose text now has fewer windows keeps none of the old ones.
 */
export async function upsertWindowRows(
  db: Kysely<Database>,
  cells: DenseCellContext,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  records: PassageWindowRecord[],
): Promise<void> {
  assertVectorsFit(
    model,
    storeName,
    records.flatMap((r) => r.vectors.map((vector) => ({ chunkId: r.chunkId, vector }))),
  );
  for (let i = 0; i < records.length; i += CHUNKS_PER_WRITE) {
    const batch = records.slice(i, i + CHUNKS_PER_WRITE);
    const windows = batch.flatMap((r) =>
      r.vectors.map((vector, index) => ({ chunkId: r.chunkId, documentId: r.documentId, index, vector })),
    );
    await writeWithCells(
      db,
      cells.cache,
      'window_dense_vectors',
      scope,
      model,
      windows.map((w) => w.vector),
      async (trx, cellOf) => {
        await trx
          .deleteFrom('window_dense_vectors')
          .where('chunk_id', '=', sql<string>`ANY(${batch.map((r) => r.chunkId)}::text[])`)
          .where('user_id', '=', scope.userId)
          .where('dataset_id', '=', scope.datasetId)
          .execute();
        if (windows.length === 0) return;
        await trx
          .insertInto('window_dense_vectors')
          .values(
            windows.map((w, j) => ({
              window_id: windowId(w.chunkId, w.index),
              chunk_id: w.chunkId,
              document_id: w.documentId,
              user_id: scope.userId,
              dataset_id: scope.datasetId,
              model: model.model,
              dimension: model.dimension,
              vector: w.vector,
              cell: cellOf[j] as number,
            })),
          )
          .execute();
      },
    );
  }
}

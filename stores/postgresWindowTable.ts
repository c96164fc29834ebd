import { sql, type Kysely } from 'kysely';
import { windowId } from '../chunker/passageWindows';
import type { Database } from '../db/database';
import { bestFirst, cosineOfQuantized, norm } from './denseScoring';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { EmbeddingModelRef, PassageWindowRecord, SearchHit, TenantScope } from './ports';
import { ownerColumns } from './vectorOwner';

/** Chunks per transaction: their windows (up to a dozen each) go in one insert. */
const CHUNKS_PER_WRITE = 100;

/**
 * Writes each record's windows in place of every window its chunk had, of any model, in one
 * transaction per batch: a chunk never shows windows of two models or of two embeddings at once,
 * and a chunk whose text now has fewer windows keeps none of the old ones.
 */
export async function upsertWindowRows(
  db: Kysely<Database>,
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
    const rows = batch.flatMap((r) =>
      r.vectors.map((vector, index) => ({
        window_id: windowId(r.chunkId, index),
        ...ownerColumns(scope, r),
        model: model.model,
        dimension: model.dimension,
        vector,
      })),
    );
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('window_dense_vectors')
        .where('chunk_id', '=', sql<string>`ANY(${batch.map((r) => r.chunkId)}::text[])`)
        .where('user_id', '=', scope.userId)
        .where('dataset_id', '=', scope.datasetId)
        .execute();
      if (rows.length > 0) await trx.insertInto('window_dense_vectors').values(rows).execute();
    });
  }
}

/**
 * Each given chunk's best window of the model, scored from the windows' quantized bytes (within a
 * few thousandths of the exact cosine), best first: one indexed read of the candidates' windows.
 */
export async function scoreWindowRows(
  db: Kysely<Database>,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  vector: number[],
  chunkIds: string[],
): Promise<SearchHit[]> {
  if (vector.length !== model.dimension) {
    throw dimensionMismatch(model, storeName, `the query vector has ${vector.length} dimensions`);
  }
  if (chunkIds.length === 0) return [];
  const rows = await db
    .selectFrom('window_dense_vectors')
    .select(['chunk_id', 'quantized'])
    .where('chunk_id', '=', sql<string>`ANY(${chunkIds}::text[])`)
    .where('user_id', '=', scope.userId)
    .where('dataset_id', '=', scope.datasetId)
    .where('model', '=', model.model)
    .where('dimension', '=', model.dimension)
    .execute();
  const queryNorm = norm(vector);
  const best = new Map<string, number>();
  for (const row of rows) {
    const score = cosineOfQuantized(row.quantized, vector, queryNorm) ?? -1;
    if (score > (best.get(row.chunk_id) ?? -Infinity)) best.set(row.chunk_id, score);
  }
  return [...best].map(([chunkId, score]) => ({ chunkId, score })).sort(bestFirst);
}

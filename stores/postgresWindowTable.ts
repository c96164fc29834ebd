import { sql, type Kysely } from 'kysely';
import { windowId } from '../chunker/passageWindows';
import type { Database } from '../db/database';
import { vectorLiteral } from '../db/pgvector';
import { cosineOfDistance } from './postgresDenseTable';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { EmbeddingModelRef, PassageWindowRecord, SearchHit, SearchScope, TenantScope } from './ports';
import { searchCondition } from './postgresDocumentFilter';
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
        vector: vectorLiteral(vector),
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
 * Each given chunk's best window of the model by cosine, best first: one indexed read of the
 * candidates' windows (by chunk id), scored by pgvector in the same query. No HNSW index: windows
 * are only ever read for a search's candidates.
 */
export async function scoreWindowRows(
  db: Kysely<Database>,
  storeName: string,
  scope: SearchScope,
  model: EmbeddingModelRef,
  vector: number[],
  chunkIds: string[],
): Promise<SearchHit[]> {
  if (vector.length !== model.dimension) {
    throw dimensionMismatch(model, storeName, `the query vector has ${vector.length} dimensions`);
  }
  if (chunkIds.length === 0) return [];
  const { rows } = await sql<{ chunk_id: string; distance: number }>`
    SELECT chunk_id, min(vector <=> ${vectorLiteral(vector)}::vector) AS distance FROM window_dense_vectors
     WHERE chunk_id = ANY(${chunkIds}::text[]) AND ${searchCondition({ ...scope, filter: undefined })}
       AND model = ${model.model} AND dimension = ${model.dimension}
     GROUP BY chunk_id`.execute(db);
  return rows
    .map((r) => ({ chunkId: r.chunk_id, score: cosineOfDistance(r.distance) }))
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { bestFirst, cosineOfQuantized, cosineOfSent, norm, signBits } from './denseScoring';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { DenseRecord, EmbeddingModelRef, SearchHit, TenantScope } from './ports';
import { cellsToRead, writeWithCells, type CellCache, type DenseTable } from './postgresDenseCells';
import { ownerColumns } from './vectorOwner';

/** The store's cached centroids and the share of cells a search reads (stores/postgresDenseCells.ts). */
export interface DenseCellContext {
  cache: CellCache;
  probeShare: number;
}

const UPSERT_BATCH = 200;

/**
 * Upsert keyed by chunk id: a chunk has one row per table, so writing it with another model
 * replaces its row (a re-embedding's move). Postgres derives `sign_bits` and `quantized` from the
 * vector; each row gets its cell of the model's centroids (-1 while it has none).
 */
export async function upsertDenseRows(
  db: Kysely<Database>,
  cells: DenseCellContext,
  table: DenseTable,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  records: DenseRecord[],
): Promise<void> {
  assertVectorsFit(model, storeName, records);
  for (let i = 0; i < records.length; i += UPSERT_BATCH) {
    const batch = records.slice(i, i + UPSERT_BATCH);
    await writeWithCells(
      db,
      cells.cache,
      table,
      scope,
      model,
      batch.map((r) => r.vector),
      async (trx, cellOf) => {
        const rows = batch.map((r, j) => ({
          ...ownerColumns(scope, r),
          model: model.model,
          dimension: model.dimension,
          vector: r.vector,
          cell: cellOf[j] as number,
        }));
        await trx
          .insertInto(table)
          .values(rows)
          .onConflict((oc) =>
            oc.column('chunk_id').doUpdateSet((eb) => ({
              vector: eb.ref('excluded.vector'),
              model: eb.ref('excluded.model'),
              dimension: eb.ref('excluded.dimension'),
              cell: eb.ref('excluded.cell'),
              updated_at: sql`now()`,
            })),
          )
          .execute();
      },
    );
  }
}

/**
 * How many of the best rows by quantized cosine are scored again from their floats: the quantized
 * order can swap rows whose cosines differ by less than its error (a few thousandths), so twice
 * the page is read back, as vector engines rescore an oversampled quantized list.
 */
const RESCORE_FACTOR = 2;

/**
 * The `limit` rows of the model closest to `vector` by cosine, best first, with exact scores.
 * Once the model has cells, only the rows of the cells nearest the query are read
 * (stores/postgresDenseCells.ts). Three passes, measured in bench:search on 100,000 chunks: the `candidates` rows whose sign bits
 * differ least from the query's (a native bit_count over an index that carries the bits, no heap
 * row read); their cosine from the quantized bytes kept inline in each row; and the exact cosine,
 * from the floats (array_send), of the best RESCORE_FACTOR x `limit` of those. Reading every
 * candidate's floats had cost a third of a search; scoring in SQL (unnest per row) ~0.1 ms a row.
 * A dataset with no more rows of the model than `candidates` is ranked whole.
 */
export async function searchDenseRows(
  db: Kysely<Database>,
  cells: DenseCellContext,
  table: DenseTable,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  vector: number[],
  limit: number,
  candidates: number,
): Promise<SearchHit[]> {
  if (vector.length !== model.dimension) {
    throw dimensionMismatch(model, storeName, `the query vector has ${vector.length} dimensions`);
  }
  if (limit <= 0) return [];
  const ofModel = sql`user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
                      AND model = ${model.model} AND dimension = ${model.dimension}`;
  const bits = sql`${signBits(vector)}::bit varying`;
  // One snapshot for the centroids and the rows' cells: a training that commits between the two
  // reads would otherwise pair one generation's nearest cells with the next one's numbering.
  const rows = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const probes = await cellsToRead(trx, cells.cache, table, scope, model, vector, cells.probeShare);
      const inCells = probes ? sql`AND cell = ANY(${probes}::int[])` : sql``;
      const coarse = await sql<{ chunk_id: string; quantized: Buffer }>`
        WITH coarse AS (
          SELECT chunk_id FROM ${sql.table(table)} WHERE ${ofModel} ${inCells}
           ORDER BY bit_count(sign_bits # ${bits}), chunk_id
           LIMIT ${Math.max(limit, candidates)}
        )
        SELECT v.chunk_id, v.quantized FROM coarse JOIN ${sql.table(table)} v USING (chunk_id)`.execute(trx);
      return coarse.rows;
    });
  const queryNorm = norm(vector);
  const shortlist = rows
    .map((r) => ({ chunkId: r.chunk_id, score: cosineOfQuantized(r.quantized, vector, queryNorm) }))
    .sort(bestFirst)
    .slice(0, limit * RESCORE_FACTOR)
    .map((h) => h.chunkId);
  if (shortlist.length === 0) return [];
  const exact = await sql<{ chunk_id: string; sent: Buffer }>`
    SELECT chunk_id, array_send(vector) AS sent FROM ${sql.table(table)}
     WHERE chunk_id = ANY(${shortlist}::text[]) AND ${ofModel}`.execute(db);
  return exact.rows
    .map((r) => ({ chunkId: r.chunk_id, score: cosineOfSent(r.sent, vector, queryNorm) }))
    .sort(bestFirst)
    .slice(0, limit)
    .map((h) => ({ chunkId: h.chunkId, score: h.score ?? 0 }));
}

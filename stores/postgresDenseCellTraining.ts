import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/database';
import type { DenseCellCompute, EmbeddingModelRef, TenantScope } from './ports';
import {
  cellCountFor,
  encodeCentroids,
  keyOf,
  whereKey,
  type DenseCellSettings,
  type DenseTable,
} from './postgresDenseCells';

/** A k-means sample this many times the cell count: enough members per cell for a stable centre. */
const SAMPLE_PER_CELL = 32;
const ITERATIONS = 8;
/** Rows reassigned per fetch (and per task on the CPU pool). */
const ASSIGN_PAGE = 5_000;

export type CellRefresh = 'trained' | 'not-due' | 'busy';

type Key = { table: DenseTable; scope: TenantScope; model: EmbeddingModelRef };

function ofModel({ scope, model }: Key) {
  return sql`user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
             AND model = ${model.model} AND dimension = ${model.dimension}`;
}

function due(rows: number, trained: number | null, minRows: number): boolean {
  return rows >= minRows && (trained === null || trained === 0 || rows >= 2 * trained);
}

async function trainedRows(db: Kysely<Database> | Transaction<Database>, key: Key): Promise<number | null> {
  const { rows } = await sql<{ trained: number }>`
    SELECT trained_rows AS trained FROM dense_cells WHERE ${whereKey(key.table, key.scope, key.model)}`.execute(db);
  return rows[0]?.trained ?? null;
}

/** The row a first training and the writes during it lock: generation 0, no cells yet. */
async function ensureCellsRow(db: Kysely<Database>, { table, scope, model }: Key): Promise<void> {
  await sql`
    INSERT INTO dense_cells (dense_table, user_id, dataset_id, model, dimension, generation, cell_count,
                             centroids, trained_rows)
    VALUES (${table}, ${scope.userId}, ${scope.datasetId}, ${model.model}, ${model.dimension}, 0, 0, '', 0)
    ON CONFLICT DO NOTHING`.execute(db);
}

/** A random sample of the model's rows, as the quantized bytes' values (b - 128), one row after another. */
async function sampleOf(trx: Transaction<Database>, key: Key, size: number): Promise<Float32Array> {
  const { dimension } = key.model;
  const { rows } = await sql<{ quantized: Buffer }>`
    SELECT quantized FROM ${sql.table(key.table)} WHERE ${ofModel(key)} ORDER BY random() LIMIT ${size}`.execute(trx);
  const sample = new Float32Array(rows.length * dimension);
  rows.forEach((r, i) => {
    for (let d = 0; d < dimension; d += 1) sample[i * dimension + d] = (r.quantized[d] ?? 128) - 128;
  });
  return sample;
}

/**
 * Every row of the model moved to its cell of `centroids`, read through one cursor a page at a time.
 * The update names the model too: a row re-embedded by another model since it was read keeps its cell.
 */
async function reassign(
  trx: Transaction<Database>,
  key: Key,
  compute: DenseCellCompute,
  centroids: Float32Array,
): Promise<void> {
  const { dimension } = key.model;
  await sql`DECLARE sluice_dense_cells NO SCROLL CURSOR FOR
              SELECT chunk_id, quantized FROM ${sql.table(key.table)} WHERE ${ofModel(key)}`.execute(trx);
  for (;;) {
    const { rows: page } = await sql<{ chunk_id: string; quantized: Buffer }>`
      FETCH ${sql.raw(String(ASSIGN_PAGE))} FROM sluice_dense_cells`.execute(trx);
    if (page.length === 0) break;
    const bytes = new Uint8Array(page.length * dimension).fill(128);
    page.forEach((r, i) => bytes.set(r.quantized.subarray(0, dimension), i * dimension));
    const cells = await compute.assignDenseCells(centroids, dimension, bytes, page.length);
    await sql`
      UPDATE ${sql.table(key.table)} t SET cell = u.cell
        FROM unnest(${page.map((r) => r.chunk_id)}::text[], ${Array.from(cells)}::int[]) AS u(chunk_id, cell)
       WHERE t.chunk_id = u.chunk_id AND t.user_id = ${key.scope.userId}
         AND t.dataset_id = ${key.scope.datasetId} AND t.model = ${key.model.model}
         AND t.dimension = ${dimension}`.execute(trx);
  }
  await sql`CLOSE sluice_dense_cells`.execute(trx);
}

/**
 * Trains the model's cells when they are due, and reassigns every row to them: due when the model
 * has `minRows` rows and no cells yet, or twice the rows its cells were trained on. Another process
 * training the same cells makes this one return 'busy'. The k-means and the assignment run on
 * `compute` (the worker's CPU pool); Postgres only samples and records.
 */
export async function refreshDenseCells(
  db: Kysely<Database>,
  table: DenseTable,
  scope: TenantScope,
  model: EmbeddingModelRef,
  compute: DenseCellCompute,
  settings: DenseCellSettings,
): Promise<CellRefresh> {
  const key = { table, scope, model };
  const { rows: counted } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${ofModel(key)}`.execute(db);
  const rows = Number(counted[0]?.n ?? 0);
  if (!due(rows, await trainedRows(db, key), settings.minRows)) return 'not-due';
  await ensureCellsRow(db, key);
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ ok: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${keyOf(table, scope, model)}, 0)) AS ok`.execute(trx);
    if (!locked[0]?.ok) return 'busy';
    // Another process may have trained them between the count and the lock.
    if (!due(rows, await trainedRows(trx, key), settings.minRows)) return 'not-due';
    const count = cellCountFor(rows, model.dimension);
    const values = await compute.trainDenseCells(
      await sampleOf(trx, key, count * SAMPLE_PER_CELL),
      model.dimension,
      count,
      ITERATIONS,
    );
    await sql`SELECT 1 FROM dense_cells WHERE ${whereKey(table, scope, model)} FOR UPDATE`.execute(trx);
    await reassign(trx, key, compute, values);
    await sql`
      UPDATE dense_cells SET generation = generation + 1, cell_count = ${values.length / model.dimension},
                             centroids = ${encodeCentroids(values)}, trained_rows = ${rows}, trained_at = now()
       WHERE ${whereKey(table, scope, model)}`.execute(trx);
    return 'trained' as const;
  });
}

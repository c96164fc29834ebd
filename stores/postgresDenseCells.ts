import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/database';
import { nearestCell, nearestCells, type Centroids } from './denseCells';
import type { DenseCellCompute, EmbeddingModelRef, TenantScope } from './ports';

/**
 * The inverted-file index of the Postgres dense search (migration 20261208T0100_dense_cells): per
 * dense table, dataset and model, centroids found by spherical k-means over a sample of the rows,
 * and each row's cell. Rows written before a training, or while one ran, keep cell -1, which every
 * search reads, so a row is never out of reach; only which rows a search reads changes.
 *
 * A training holds the centroids row FOR UPDATE while it reassigns every row, and a write holds it
 * FOR SHARE while it assigns and writes its rows: no row is written with the cells of a generation
 * its training is replacing.
 */
export type DenseTable = 'dense_vectors' | 'language_dense_vectors';

export interface DenseCellSettings {
  /** A model with fewer rows in the dataset keeps no cells: its whole scan is already short. */
  minRows: number;
  /** The share of a model's cells a search reads, nearest its query first. */
  probeShare: number;
}

/** Centroids by their key, with the generation they are of: a process reads them again only when it moved. */
export type CellCache = Map<string, { generation: number; centroids: Centroids }>;

/** A k-means sample this many times the cell count: enough members per cell for a stable centre. */
const SAMPLE_PER_CELL = 32;
const ITERATIONS = 8;
/** Rows reassigned per round trip (and per task on the CPU pool). */
const ASSIGN_PAGE = 5_000;

/**
 * Rows times cells a training may assign: each costs a dot product of the model's dimension, and a
 * training runs inside VECTORIZING (at 512 dimensions, 40 million took about 40 s on two cores).
 */
const ASSIGNMENT_BUDGET = 40_000_000;

/**
 * About the square root of the row count, as inverted-file indexes size their lists (316 at
 * 100,000 rows), and fewer past 126,000 rows so that a training stays within its budget: a larger
 * dataset reads fewer, larger cells, still a quarter of its rows, not all of them.
 */
export function cellCountFor(rows: number): number {
  const byRows = Math.min(1_024, Math.max(16, Math.round(Math.sqrt(rows))));
  return Math.max(16, Math.min(byRows, Math.floor(ASSIGNMENT_BUDGET / Math.max(1, rows))));
}

function keyOf(table: DenseTable, scope: TenantScope, model: EmbeddingModelRef): string {
  return JSON.stringify([table, scope.userId, scope.datasetId, model.model, model.dimension]);
}

function whereKey(table: DenseTable, scope: TenantScope, model: EmbeddingModelRef) {
  return sql`dense_table = ${table} AND user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
             AND model = ${model.model} AND dimension = ${model.dimension}`;
}

export function encodeCentroids(values: Float32Array): Buffer {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i += 1) bytes.writeFloatLE(values[i] as number, i * 4);
  return bytes;
}

export function decodeCentroids(bytes: Buffer, count: number, dimension: number): Centroids {
  const values = new Float32Array(count * dimension);
  for (let i = 0; i < values.length; i += 1) values[i] = bytes.readFloatLE(i * 4);
  return { count, dimension, values };
}

async function centroidsOf(
  db: Kysely<Database> | Transaction<Database>,
  cache: CellCache,
  table: DenseTable,
  scope: TenantScope,
  model: EmbeddingModelRef,
  lock: 'share' | 'none',
): Promise<Centroids | null> {
  const key = keyOf(table, scope, model);
  const forShare = lock === 'share' ? sql`FOR SHARE` : sql``;
  const { rows } = await sql<{ generation: number }>`
    SELECT generation FROM dense_cells WHERE ${whereKey(table, scope, model)} ${forShare}`.execute(db);
  const generation = rows[0]?.generation;
  if (generation === undefined) return null;
  const cached = cache.get(key);
  if (cached?.generation === generation) return cached.centroids;
  const stored = await sql<{ generation: number; cell_count: number; centroids: Buffer }>`
    SELECT generation, cell_count, centroids FROM dense_cells WHERE ${whereKey(table, scope, model)}`.execute(db);
  const row = stored.rows[0];
  if (!row) return null;
  const centroids = decodeCentroids(row.centroids, row.cell_count, model.dimension);
  cache.set(key, { generation: row.generation, centroids });
  return centroids;
}

/**
 * The cells a search of `vector` reads, -1 (the unassigned rows) among them; null when the model
 * has no cells here, and the search reads every row.
 */
export async function cellsToRead(
  db: Kysely<Database>,
  cache: CellCache,
  table: DenseTable,
  scope: TenantScope,
  model: EmbeddingModelRef,
  vector: number[],
  probeShare: number,
): Promise<number[] | null> {
  const centroids = await centroidsOf(db, cache, table, scope, model, 'none');
  if (!centroids) return null;
  return [-1, ...nearestCells(centroids, vector, Math.ceil(centroids.count * probeShare))];
}

/**
 * Runs `write` with the cell each vector belongs to (-1 while the model has no cells), in one
 * transaction that holds the model's centroids FOR SHARE, so a training waits for it and it for a training.
 */
export async function writeWithCells<T>(
  db: Kysely<Database>,
  cache: CellCache,
  table: DenseTable,
  scope: TenantScope,
  model: EmbeddingModelRef,
  vectors: readonly number[][],
  write: (trx: Transaction<Database>, cells: number[]) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const centroids = await centroidsOf(trx, cache, table, scope, model, 'share');
    return write(
      trx,
      vectors.map((v) => (centroids ? nearestCell(centroids, v) : -1)),
    );
  });
}

/** Holds the model's centroids FOR SHARE in `trx` (a write whose rows copy their cell from other rows). */
export async function holdCells(
  trx: Transaction<Database>,
  table: DenseTable,
  scope: TenantScope,
  model: EmbeddingModelRef,
): Promise<void> {
  await sql`SELECT 1 FROM dense_cells WHERE ${whereKey(table, scope, model)} FOR SHARE`.execute(trx);
}

export type CellRefresh = 'trained' | 'not-due' | 'busy';

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
  const ofModel = sql`user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
                      AND model = ${model.model} AND dimension = ${model.dimension}`;
  const { rows: counted } = await sql<{ n: string; trained: number | null }>`
    SELECT (SELECT count(*) FROM ${sql.table(table)} WHERE ${ofModel}) AS n,
           (SELECT trained_rows FROM dense_cells WHERE ${whereKey(table, scope, model)}) AS trained`.execute(db);
  const rows = Number(counted[0]?.n ?? 0);
  const trained = counted[0]?.trained ?? null;
  if (rows < settings.minRows || (trained !== null && rows < 2 * trained)) return 'not-due';
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ ok: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${keyOf(table, scope, model)}, 0)) AS ok`.execute(trx);
    if (!locked[0]?.ok) return 'busy';
    const count = cellCountFor(rows);
    const { rows: sampled } = await sql<{ quantized: Buffer }>`
      SELECT quantized FROM ${sql.table(table)} WHERE ${ofModel}
       ORDER BY random() LIMIT ${count * SAMPLE_PER_CELL}`.execute(trx);
    const sample = new Float32Array(sampled.length * model.dimension);
    sampled.forEach((r, i) => {
      for (let d = 0; d < model.dimension; d += 1) sample[i * model.dimension + d] = (r.quantized[d] ?? 128) - 128;
    });
    const values = await compute.trainDenseCells(sample, model.dimension, count, ITERATIONS);
    const cellCount = values.length / model.dimension;
    await sql`SELECT 1 FROM dense_cells WHERE ${whereKey(table, scope, model)} FOR UPDATE`.execute(trx);
    let after = '';
    for (;;) {
      const { rows: page } = await sql<{ chunk_id: string; quantized: Buffer }>`
        SELECT chunk_id, quantized FROM ${sql.table(table)} WHERE ${ofModel} AND chunk_id > ${after}
         ORDER BY chunk_id LIMIT ${ASSIGN_PAGE}`.execute(trx);
      if (page.length === 0) break;
      const bytes = new Uint8Array(page.length * model.dimension).fill(128);
      page.forEach((r, i) => bytes.set(r.quantized.subarray(0, model.dimension), i * model.dimension));
      const cells = await compute.assignDenseCells(values, model.dimension, bytes, page.length);
      await sql`
        UPDATE ${sql.table(table)} t SET cell = u.cell
          FROM unnest(${page.map((r) => r.chunk_id)}::text[], ${Array.from(cells)}::int[]) AS u(chunk_id, cell)
         WHERE t.chunk_id = u.chunk_id`.execute(trx);
      after = (page[page.length - 1] as { chunk_id: string }).chunk_id;
    }
    await sql`
      INSERT INTO dense_cells (dense_table, user_id, dataset_id, model, dimension, generation, cell_count,
                               centroids, trained_rows)
      VALUES (${table}, ${scope.userId}, ${scope.datasetId}, ${model.model}, ${model.dimension}, 1, ${cellCount},
              ${encodeCentroids(values)}, ${rows})
      ON CONFLICT (dense_table, user_id, dataset_id, model, dimension) DO UPDATE
        SET generation = dense_cells.generation + 1, cell_count = excluded.cell_count,
            centroids = excluded.centroids, trained_rows = excluded.trained_rows, trained_at = now()`.execute(trx);
    return 'trained' as const;
  });
}

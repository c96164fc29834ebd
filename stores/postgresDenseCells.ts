import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/database';
import { nearestCell, nearestCells, type Centroids } from './denseCells';
import type { EmbeddingModelRef, TenantScope } from './ports';

/**
 * The inverted-file index of the Postgres dense search (migration 20261208T0100_dense_cells): per
 * dense table, dataset and model, centroids found by spherical k-means over a sample of the rows,
 * and each row's cell. Rows written before a training, or while one ran, keep cell -1, which every
 * search reads, so a row is never out of reach; only which rows a search reads changes.
 *
 * A training holds the centroids row FOR UPDATE while it reassigns every row, and a write holds it
 * FOR SHARE while it assigns and writes its rows: no row is written with the cells of a generation
 * its training is replacing. The row exists before the first training (generation 0, no cells:
 * stores/postgresDenseCellTraining.ts), so the first one is locked out the same way.
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

/** The most models' centroids a process keeps (the least recently used go first): 0.6 MB each at 316 x 512. */
const CACHED_MODELS = 64;

/**
 * Multiply-adds a training may spend assigning rows (rows x cells x dimension): it runs inside
 * VECTORIZING, and 20 billion (40 million rows x cells at 512 dimensions) took about 40 s on two
 * cores. A write assigns its own rows in the process: at most cells x dimension per row.
 */
const ASSIGNMENT_BUDGET = 20_000_000_000;

/**
 * About the square root of the row count, as inverted-file indexes size their lists (316 at
 * 100,000 rows), and fewer once a training would pass its budget (past 126,000 rows at 512
 * dimensions): a larger dataset reads fewer, larger cells, still a quarter of its rows.
 */
export function cellCountFor(rows: number, dimension: number): number {
  const byRows = Math.min(1_024, Math.max(16, Math.round(Math.sqrt(rows))));
  return Math.max(16, Math.min(byRows, Math.floor(ASSIGNMENT_BUDGET / Math.max(1, rows * dimension))));
}

export function keyOf(table: DenseTable, scope: TenantScope, model: EmbeddingModelRef): string {
  return JSON.stringify([table, scope.userId, scope.datasetId, model.model, model.dimension]);
}

export function whereKey(table: DenseTable, scope: TenantScope, model: EmbeddingModelRef) {
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
  // Generation 0 is the row a first training locks before it has cells.
  if (generation === undefined || generation === 0) return null;
  const cached = cache.get(key);
  if (cached?.generation === generation) {
    cache.delete(key);
    cache.set(key, cached);
    return cached.centroids;
  }
  const stored = await sql<{ generation: number; cell_count: number; centroids: Buffer }>`
    SELECT generation, cell_count, centroids FROM dense_cells WHERE ${whereKey(table, scope, model)}`.execute(db);
  const row = stored.rows[0];
  if (!row || row.cell_count === 0) return null;
  const centroids = decodeCentroids(row.centroids, row.cell_count, model.dimension);
  cache.delete(key);
  cache.set(key, { generation: row.generation, centroids });
  if (cache.size > CACHED_MODELS) cache.delete(cache.keys().next().value as string);
  return centroids;
}

/**
 * The cells a search of `vector` reads, -1 (the unassigned rows) among them; null when the model
 * has no cells here, and the search reads every row.
 */
export async function cellsToRead(
  db: Kysely<Database> | Transaction<Database>,
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

/**
 * Holds every model's centroids of the dataset FOR SHARE in `trx`, before rows are deleted: a
 * delete then waits for a training to commit instead of deadlocking with its row locks.
 */
export async function holdDatasetCells(trx: Transaction<Database>, scope: TenantScope): Promise<void> {
  await sql`SELECT 1 FROM dense_cells WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
             ORDER BY dense_table, model, dimension FOR SHARE`.execute(trx);
}

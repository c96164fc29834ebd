import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createCpuPool, type CpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { refreshDenseCells } from '../../stores/postgresDenseCellTraining';
import { cellCountFor } from '../../stores/postgresDenseCells';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import type { DenseCellCompute, DenseRecord, VectorStore } from '../../stores/ports';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';
import { newScope, unitVector } from '../../testkit/harness/vectorStoreContract';

// The Postgres store's inverted-file index (stores/postgresDenseCells.ts), on the real server,
// trained on the worker's CPU pool: when a model's rows are clustered into cells, which rows a
// search then reads, and that no row is ever out of reach.

const db = createDb(TEST_DATABASE_URL, 4);
let cpu: CpuPool;
beforeAll(() => {
  cpu = createCpuPool({ threads: 1, limits: DEFAULT_PARSE_LIMITS });
});
afterAll(async () => {
  await cpu.close();
  await db.destroy();
});

const MIN_ROWS = 1_000;
const DIMENSION = 32;
const CLUSTERS = 8;

/** A deterministic pseudo-random generator in [-0.5, 0.5), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
}

/** `count` unit vectors, the i-th near axis i % CLUSTERS. */
function clusteredRecords(doc: string, from: number, count: number, seed: number): DenseRecord[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    const vector = unitVector(Array.from({ length: DIMENSION }, (_, d) => (d === i % CLUSTERS ? 1 : 0) + next() * 0.4));
    return { chunkId: `${doc}-${i}`, documentId: doc, vector };
  });
}

function setup(probeShare = 0.25): {
  store: VectorStore;
  scope: ReturnType<typeof newScope>;
  model: { model: string; dimension: number };
} {
  const store = createPostgresVectorStore(db, { rerankCandidates: 500, cells: { minRows: MIN_ROWS, probeShare } });
  return { store, scope: newScope(), model: { model: `cells-${randomUUID().slice(0, 8)}`, dimension: DIMENSION } };
}

async function cellsOf(
  table: 'dense_vectors' | 'language_dense_vectors',
  datasetId: string,
): Promise<Map<string, number>> {
  const rows = await db.selectFrom(table).select(['chunk_id', 'cell']).where('dataset_id', '=', datasetId).execute();
  return new Map(rows.map((r) => [r.chunk_id, r.cell]));
}

async function generationOf(datasetId: string, table = 'dense_vectors'): Promise<number | undefined> {
  const row = await db
    .selectFrom('dense_cells')
    .select(['generation', 'cell_count', 'trained_rows'])
    .where('dataset_id', '=', datasetId)
    .where('dense_table', '=', table)
    .executeTakeFirst();
  return row?.generation;
}

it('clusters a model into cells once it has enough rows, assigns every row, and still finds the nearest first', async () => {
  const { store, scope, model } = setup();
  const doc = randomUUID();
  const first = clusteredRecords(doc, 0, MIN_ROWS - 100, 1);
  await store.upsertDense(scope, model, first);
  await store.maintainDenseIndex?.(scope, model, 'first', cpu);
  expect(await generationOf(scope.datasetId)).toBeUndefined();
  expect(new Set((await cellsOf('dense_vectors', scope.datasetId)).values())).toEqual(new Set([-1]));

  const more = clusteredRecords(doc, MIN_ROWS - 100, 300, 2);
  await store.upsertDense(scope, model, more);
  await store.upsertLanguageDense(scope, model, [...first, ...more]);
  await store.maintainDenseIndex?.(scope, model, 'first', cpu);
  expect(await generationOf(scope.datasetId)).toBe(1);
  // Only the table asked for is trained.
  expect(await generationOf(scope.datasetId, 'language_dense_vectors')).toBeUndefined();
  const cells = await cellsOf('dense_vectors', scope.datasetId);
  const count = cellCountFor(MIN_ROWS + 200, DIMENSION);
  expect([...cells.values()].every((cell) => cell >= 0 && cell < count)).toBe(true);
  expect(new Set(cells.values()).size).toBeGreaterThan(CLUSTERS);

  const all = [...first, ...more];
  const next = random(5);
  for (const target of [4, 517, 1_150]) {
    const query = unitVector((all[target]?.vector ?? []).map((v) => v + next() * 0.02));
    const [best] = await store.searchDense(scope, model, query, 3);
    expect(best?.chunkId).toBe(`${doc}-${target}`);
  }

  // A row written after the training gets its cell as it is written.
  const late = clusteredRecords(doc, 5_000, 3, 9);
  await store.upsertDense(scope, model, late);
  const lateCells = await cellsOf('dense_vectors', scope.datasetId);
  expect(late.every((r) => (lateCells.get(r.chunkId) ?? -1) >= 0)).toBe(true);
  const [found] = await store.searchDense(scope, model, late[1]?.vector ?? [], 1);
  expect(found?.chunkId).toBe(late[1]?.chunkId);
});

it('reads only the cells nearest the query, and every row not yet assigned', async () => {
  const { store, scope, model } = setup(0.1);
  const doc = randomUUID();
  const records = clusteredRecords(doc, 0, MIN_ROWS + 200, 3);
  await store.upsertDense(scope, model, records);
  await store.maintainDenseIndex?.(scope, model, 'first', cpu);
  const cells = await cellsOf('dense_vectors', scope.datasetId);
  const query = unitVector(Array.from({ length: DIMENSION }, (_, d) => (d === 0 ? 1 : 0)));
  const hits = await store.searchDense(scope, model, query, 2_000);
  const probes = Math.ceil(cellCountFor(records.length, DIMENSION) * 0.1);
  const read = new Set(hits.map((h) => cells.get(h.chunkId)));
  expect(read.size).toBeLessThanOrEqual(probes);
  expect(hits.length).toBeLessThan(records.length / 2);
  // The rows near axis 0 are what it read.
  expect(hits.slice(0, 50).every((h) => Number(h.chunkId.split('-').pop()) % CLUSTERS === 0)).toBe(true);

  // A row far from the query, unassigned (as a write racing a training leaves it), is still read.
  const far = records[3]?.chunkId ?? '';
  expect(hits.some((h) => h.chunkId === far)).toBe(false);
  await db.updateTable('dense_vectors').set({ cell: -1 }).where('chunk_id', '=', far).execute();
  const again = await store.searchDense(scope, model, query, 2_000);
  expect(again.some((h) => h.chunkId === far)).toBe(true);
});

/** The CPU pool, stopped at its first assignment (the training then holds the centroids FOR UPDATE) until released. */
function gated(): { compute: DenseCellCompute; assigning: Promise<void>; release: () => void } {
  let entered = (): void => undefined;
  let release = (): void => undefined;
  const assigning = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const compute: DenseCellCompute = {
    trainDenseCells: (...args) => cpu.trainDenseCells(...args),
    assignDenseCells: async (...args) => {
      entered();
      await released;
      return cpu.assignDenseCells(...args);
    },
  };
  return { compute, assigning, release };
}

it('trains again once the rows double, as a new generation; a copy keeps its source cell', async () => {
  const { store, scope, model } = setup();
  const doc = randomUUID();
  await store.upsertDense(scope, model, clusteredRecords(doc, 0, MIN_ROWS, 4));
  const settings = { minRows: MIN_ROWS, probeShare: 0.25 };
  const refresh = () => refreshDenseCells(db, 'dense_vectors', scope, model, cpu, settings);
  expect(await refresh()).toBe('trained');
  expect(await refresh()).toBe('not-due');

  await store.upsertDense(scope, model, clusteredRecords(doc, MIN_ROWS, MIN_ROWS, 6));
  expect(await refresh()).toBe('trained');
  expect(await generationOf(scope.datasetId)).toBe(2);
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM dense_vectors WHERE dataset_id = ${scope.datasetId} AND cell = -1`.execute(db);
  expect(Number(rows[0]?.n)).toBe(0);

  const copied = await store.copyDense(scope, model, [
    { fromChunkId: `${doc}-7`, toChunkId: `${doc}-copy`, documentId: doc },
  ]);
  expect(copied).toEqual([`${doc}-copy`]);
  const cells = await cellsOf('dense_vectors', scope.datasetId);
  expect(cells.get(`${doc}-copy`)).toBe(cells.get(`${doc}-7`));
});

it('during a first training, another is busy, and a write and a delete wait for it: the write gets its cell', async () => {
  const { store, scope, model } = setup();
  const doc = randomUUID();
  const gone = randomUUID();
  await store.upsertDense(scope, model, clusteredRecords(doc, 0, MIN_ROWS - 10, 7));
  await store.upsertDense(scope, model, clusteredRecords(gone, 0, 10, 8));
  const settings = { minRows: MIN_ROWS, probeShare: 0.25 };
  const { compute, assigning, release } = gated();
  const training = refreshDenseCells(db, 'dense_vectors', scope, model, compute, settings);
  await assigning;
  expect(await refreshDenseCells(db, 'dense_vectors', scope, model, cpu, settings)).toBe('busy');

  const late = clusteredRecords(doc, 9_000, 2, 9);
  let settled = 0;
  const writing = store.upsertDense(scope, model, late).then(() => (settled += 1));
  const deleting = store.deleteDocument(scope, gone).then(() => (settled += 1));
  try {
    // Both wait on the centroids row the training holds (a slower machine only waits longer).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(0);
  } finally {
    release();
  }
  expect(await training).toBe('trained');
  await Promise.all([writing, deleting]);
  const cells = await cellsOf('dense_vectors', scope.datasetId);
  expect(late.map((r) => (cells.get(r.chunkId) ?? -1) >= 0)).toEqual([true, true]);
  expect([...cells.keys()].some((id) => id.startsWith(gone))).toBe(false);
  expect([...cells.values()].every((cell) => cell >= 0)).toBe(true);
});

it('keeps no cells for a model with no more rows than the rerank depth: it is ranked whole', async () => {
  const store = createPostgresVectorStore(db, { rerankCandidates: 2_000, cells: { minRows: MIN_ROWS } });
  const scope = newScope();
  const model = { model: `cells-${randomUUID().slice(0, 8)}`, dimension: DIMENSION };
  await store.upsertDense(scope, model, clusteredRecords(randomUUID(), 0, MIN_ROWS + 100, 10));
  await store.maintainDenseIndex?.(scope, model, 'first', cpu);
  expect(await generationOf(scope.datasetId)).toBeUndefined();
});

import { randomUUID } from 'node:crypto';
import type { ActivityDeps } from '../../activities/deps';
import { createVectorizingActivity } from '../../activities/stages/vectorizing';
import { createCpuPool, type CpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { countChunks } from '../../db/repositories/chunks';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import type { VectorStore } from '../../stores/ports';
import { partialDeps, runAttempt, seedStageTask } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// VECTORIZING keeps the Postgres store's dense cells up to date (stores/postgresDenseCells.ts):
// once a dataset has enough rows of the model, the stage trains them on the worker's CPU pool, and
// a failing training never fails the stage, whose vectors are written either way.

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
const embedder = { ...createLocalHashEmbedder({ dimension: 16 }), model: `cells-${randomUUID().slice(0, 8)}` };

function depsWith(vectors: VectorStore): ActivityDeps {
  return partialDeps({
    db,
    vectors,
    cpu,
    embedders: singleEmbedderResolver(embedder),
    languageEmbedders: null,
    settings: { embedBatchSize: 200 } as ActivityDeps['settings'],
  });
}

async function cellsOf(datasetId: string): Promise<number[]> {
  const rows = await db.selectFrom('dense_vectors').select('cell').where('dataset_id', '=', datasetId).execute();
  return rows.map((r) => r.cell);
}

it('trains the cells of a dataset that reached the row count, and leaves a smaller one without', async () => {
  const vectors = createPostgresVectorStore(db, { cells: { minRows: MIN_ROWS } });
  const small = await seedStageTask(db, 20, ['CLEANING', 'CHUNKING']);
  expect((await runAttempt(createVectorizingActivity(depsWith(vectors)), small).outcome).result?.items).toBe(20);
  expect(new Set(await cellsOf(small.datasetId))).toEqual(new Set([-1]));

  const large = await seedStageTask(db, MIN_ROWS + 50, ['CLEANING', 'CHUNKING']);
  const { result } = await runAttempt(createVectorizingActivity(depsWith(vectors)), large).outcome;
  expect(result?.items).toBe(MIN_ROWS + 50);
  const trained = await db
    .selectFrom('dense_cells')
    .select(['generation', 'trained_rows', 'model'])
    .where('dataset_id', '=', large.datasetId)
    .execute();
  expect(trained).toEqual([{ generation: 1, trained_rows: MIN_ROWS + 50, model: embedder.model }]);
  expect((await cellsOf(large.datasetId)).every((cell) => cell >= 0)).toBe(true);
});

it('a training that fails is logged and the stage still succeeds with every vector written', async () => {
  const real = createPostgresVectorStore(db, { cells: { minRows: MIN_ROWS } });
  let asked = 0;
  const vectors: VectorStore = {
    ...real,
    maintainDenseIndex: () => {
      asked += 1;
      return Promise.reject(new Error('the CPU pool is closing'));
    },
  };
  const input = await seedStageTask(db, 30, ['CLEANING', 'CHUNKING']);
  const { result, error } = await runAttempt(createVectorizingActivity(depsWith(vectors)), input).outcome;
  expect(error).toBeUndefined();
  expect(result).toMatchObject({ stage: 'VECTORIZING', skipped: false, items: 30 });
  expect(asked).toBe(1);
  expect((await countChunks(db, input.documentId)).dense).toBe(30);
});

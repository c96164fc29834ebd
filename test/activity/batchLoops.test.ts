import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '../../activities/deps';
import { createSparseVectorizingActivity } from '../../activities/stages/sparseVectorizing';
import { storeTokenPlan } from '../../activities/stages/tokenPlan';
import { createVectorizingActivity } from '../../activities/stages/vectorizing';
import { createDb } from '../../db/connection';
import { countChunks, setChunkStatus } from '../../db/repositories/chunks';
import { getPipeline } from '../../db/repositories/pipelines';
import { recordTokenPlan } from '../../db/repositories/tasks';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { sparseVectorFromTokens } from '../../sparse/sparseVector';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import type { VectorStore } from '../../stores/ports';
import { partialDeps, runAttempt, seedStageTask } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// VECTORIZING and SPARSE_VECTORIZING share one batch loop (activities/stages/pendingBatches.ts). Attempt
// by attempt, as Temporal runs them: a batch that fails leaves the resume point after the last
// batch written and marked, and the retry, handed those heartbeat details, writes only the rest.

const db = createDb(TEST_DATABASE_URL, 4);
const objects = createLocalObjectStore(path.join(os.tmpdir(), `sluice-activity-${randomUUID()}`));
afterAll(() => db.destroy());
afterEach(() => jest.restoreAllMocks());

/** Each call into a provider "takes" 3 s of a simulated clock: the attempt heartbeats after its first batch. */
function slowClock(): () => void {
  const realNow = Date.now.bind(Date);
  let offset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
  return () => {
    offset += 3000;
  };
}

const expectRetryable = (error: unknown, type: string) => {
  expect(error).toBeInstanceOf(ApplicationFailure);
  expect(error).toMatchObject({ type, nonRetryable: false });
};

it('VECTORIZING: a provider error in batch 3 of 5, then a retry from the heartbeat embeds only the last 3 batches', async () => {
  const tick = slowClock();
  const input = await seedStageTask(db, 50, ['CLEANING', 'CHUNKING']);
  const real = createLocalHashEmbedder({ dimension: 8 });
  const embedded: string[] = [];
  let failOnCall: number | null = 3;
  let calls = 0;
  const embedder = {
    ...real,
    async embed(texts: string[]) {
      tick();
      calls += 1;
      if (calls === failOnCall) {
        failOnCall = null;
        throw new Error('socket hang up');
      }
      for (const t of texts) embedded.push(t);
      return real.embed(texts);
    },
  };
  const deps = partialDeps({
    db,
    vectors: createPostgresVectorStore(db),
    embedders: singleEmbedderResolver(embedder),
    languageEmbedders: null,
    settings: { embedBatchSize: 10 } as ActivityDeps['settings'],
  });
  const activity = createVectorizingActivity(deps);

  const first = runAttempt(activity, input);
  const failed = await first.outcome;
  expectRetryable(failed.error, 'VECTORIZING_FAILED');
  expect(first.details()).toMatchObject({ lastChunkIndex: 19, done: 20 });
  expect((await countChunks(db, input.documentId)).dense).toBe(20);

  const second = await runAttempt(activity, input, first.details()).outcome;
  expect(second.result).toEqual({ stage: 'VECTORIZING', skipped: false, items: 30 });
  expect(embedded).toHaveLength(50);
  expect(new Set(embedded).size).toBe(50);
  expect((await countChunks(db, input.documentId)).dense).toBe(50);
  expect((await getPipeline(db, input.taskId)).vectorizing_status).toBe('SUCCESS');
});

it('SPARSE_VECTORIZING: an upsert error in batch 2 of 3, then a retry from the heartbeat writes only the rest', async () => {
  const tick = slowClock();
  const chunks = 1200;
  const doc = await seedStageTask(db, chunks, [
    'CLEANING',
    'CHUNKING',
    'VECTORIZING',
    'PRETOKENIZE',
    'KEYWORD_INDEXING',
  ]);
  const ids = Array.from({ length: chunks }, (_, i) => `${doc.documentId}:${i}`);
  await setChunkStatus(db, ids, 'dense_status', 'SUCCESS');
  const planDeps = partialDeps({ objects });
  const tokenPlanObjectKey = await storeTokenPlan(
    planDeps,
    doc,
    new Map(ids.map((id, i) => [id, [`chunk${i}`, 'shared']])),
  );
  await recordTokenPlan(db, doc.taskId, tokenPlanObjectKey);

  const real = createPostgresVectorStore(db);
  const written: string[] = [];
  let failOnCall: number | null = 2;
  let calls = 0;
  const vectors: VectorStore = {
    ...real,
    async upsertSparse(scope, records) {
      tick();
      calls += 1;
      if (calls === failOnCall) {
        failOnCall = null;
        throw new Error('connection reset');
      }
      for (const r of records) written.push(r.chunkId);
      return real.upsertSparse(scope, records);
    },
  };
  const deps = partialDeps({
    db,
    objects,
    vectors,
    cpu: {
      sparse: (lists: string[][]) => Promise.resolve(lists.map(sparseVectorFromTokens)),
    } as unknown as ActivityDeps['cpu'],
  });
  const activity = createSparseVectorizingActivity(deps);

  const first = runAttempt(activity, doc);
  expectRetryable((await first.outcome).error, 'SPARSE_VECTORIZING_FAILED');
  expect(first.details()).toMatchObject({ lastChunkIndex: 499, done: 500 });

  const second = await runAttempt(activity, doc, first.details()).outcome;
  expect(second.result).toEqual({ stage: 'SPARSE_VECTORIZING', skipped: false, items: 700 });
  expect(written).toHaveLength(chunks);
  expect(new Set(written).size).toBe(chunks);
  expect((await countChunks(db, doc.documentId)).sparse).toBe(chunks);
  expect((await getPipeline(db, doc.taskId)).pipeline_status).toBe('SUCCESS');
});

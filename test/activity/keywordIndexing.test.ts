import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { createKeywordIndexingActivity } from '../../activities/stages/keywordIndexing';
import type { StageInput } from '../../contracts/ingest';
import { createDb } from '../../db/connection';
import { getPipeline } from '../../db/repositories/pipelines';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { faultyKeywordIndex, type BulkFault, type FaultyKeywordIndex } from '../../testkit/fakes/faultyKeywordIndex';
import {
  newKeywordTask,
  partialDeps,
  runAttempt as runActivityAttempt,
  seedKeywordDocument,
  writeChunks,
  type Attempt,
} from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// KEYWORD_INDEXING attempt by attempt, as Temporal would run them: each attempt in its own
// MockActivityEnvironment, a retry handed the heartbeat details the failed attempt recorded, on
// the stack's Postgres with the Postgres keyword index behind a fault-injecting wrapper.

const db = createDb(TEST_DATABASE_URL, 4);
const objects = createLocalObjectStore(path.join(os.tmpdir(), `sluice-activity-${randomUUID()}`));
afterAll(() => db.destroy());

// A test that failed midway may leave a crashed attempt hanging: end it, so its timers stop.
const indexes: FaultyKeywordIndex[] = [];
const attempts: Attempt[] = [];
afterEach(async () => {
  for (const keywords of indexes.splice(0)) keywords.releaseCrashed();
  await Promise.all(attempts.splice(0).map((a) => a.outcome));
  jest.restoreAllMocks();
});

function runAttempt(...args: Parameters<typeof runActivityAttempt>): Attempt {
  const attempt = runActivityAttempt(...args);
  attempts.push(attempt);
  return attempt;
}

/**
 * Every bulk call "takes" 3 s of a simulated clock, so an attempt passes heartbeat.ts's 2 s
 * before its first heartbeat after one batch, as a real large document does, without waiting.
 */
function stageWith(faults: Array<[number, BulkFault]>) {
  const realNow = Date.now.bind(Date);
  let offset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
  const keywords = faultyKeywordIndex(createPostgresKeywordIndex(db), new Map(faults), () => (offset += 3000));
  indexes.push(keywords);
  const deps = partialDeps({ db, objects, keywords });
  return { keywords, deps, activity: createKeywordIndexingActivity(deps) };
}

const indexed = async (documentId: string): Promise<string[]> =>
  (await db.selectFrom('keyword_entries').select('chunk_id').where('document_id', '=', documentId).execute())
    .map((r) => r.chunk_id)
    .sort();

const marked = async (documentId: string): Promise<string[]> =>
  (
    await db
      .selectFrom('chunks')
      .select('chunk_id')
      .where('document_id', '=', documentId)
      .where('keyword_status', '=', 'SUCCESS')
      .execute()
  )
    .map((r) => r.chunk_id)
    .sort();

/** The invariant at every point: a chunk marked indexed is in the index. */
async function expectMarkedAreIndexed(documentId: string): Promise<void> {
  const inIndex = new Set(await indexed(documentId));
  expect((await marked(documentId)).filter((id) => !inIndex.has(id))).toEqual([]);
}

async function expectAllIndexedAndMarked(input: StageInput, chunkIds: string[]): Promise<void> {
  expect((await getPipeline(db, input.taskId)).keyword_indexing_status).toBe('SUCCESS');
  expect(await indexed(input.documentId)).toEqual([...chunkIds].sort());
  expect(await marked(input.documentId)).toEqual([...chunkIds].sort());
}

const expectRetryableFailure = (outcome: { error?: unknown }) => {
  expect(outcome.error).toBeInstanceOf(ApplicationFailure);
  expect(outcome.error).toMatchObject({ type: 'KEYWORD_INDEXING_FAILED', nonRetryable: false });
};

it.each([
  ['with the heartbeat details the first attempt recorded', true],
  ['without heartbeat details (the first attempt died before it heartbeated)', false],
])('400 chunks, batch 2 refused once, a retry %s: all 400 end indexed and marked', async (_, withDetails) => {
  const { keywords, deps, activity } = stageWith([[2, { kind: 'refuse', count: 5 }]]);
  const { input, chunkIds } = await seedKeywordDocument(deps, 400);

  const first = runAttempt(activity, input);
  expectRetryableFailure(await first.outcome);
  expect(first.details()).toMatchObject({ lastChunkIndex: 199, done: 200 });
  await expectMarkedAreIndexed(input.documentId);

  const retry = runAttempt(activity, input, withDetails ? first.details() : undefined);
  expect((await retry.outcome).error).toBeUndefined();
  await expectAllIndexedAndMarked(input, chunkIds);
  expect(keywords.calls.length).toBe(withDetails ? 3 : 4);
});

it('a worker that dies between bulkIndex and marking: the retry re-sends that batch and every chunk ends indexed and marked', async () => {
  const { keywords, deps, activity } = stageWith([[2, { kind: 'crash' }]]);
  const { input, chunkIds } = await seedKeywordDocument(deps, 400);

  const crashed = runAttempt(activity, input);
  await keywords.crashed;
  expect(crashed.details()).toMatchObject({ lastChunkIndex: 199, done: 200 });
  expect(await marked(input.documentId)).toEqual(chunkIds.slice(0, 200).sort());
  await expectMarkedAreIndexed(input.documentId);

  const retry = runAttempt(activity, input, crashed.details());
  expect((await retry.outcome).error).toBeUndefined();
  expect(keywords.calls[2]).toEqual(chunkIds.slice(200));
  await expectAllIndexedAndMarked(input, chunkIds);

  keywords.releaseCrashed();
  expect((await crashed.outcome).error).toBeDefined();
  await expectAllIndexedAndMarked(input, chunkIds);
});

it('re-indexing a rebuilt chunk set never takes an active chunk out of the index, even when the worker dies mid-way', async () => {
  // Calls 1-2 index the document under its first task; call 3 is the second task's first batch.
  const { keywords, deps, activity } = stageWith([[3, { kind: 'crash' }]]);
  const { input: first } = await seedKeywordDocument(deps, 400);
  expect((await runAttempt(activity, first).outcome).error).toBeUndefined();

  // A retry's CHUNKING rebuilt the document with its last 50 chunks gone.
  const active = await writeChunks(db, first, 350);
  const second = await newKeywordTask(deps, first);
  const crashed = runAttempt(activity, second);
  await keywords.crashed;
  // Searchable throughout: every active chunk still has its entry while the re-index is stuck.
  expect((await indexed(first.documentId)).filter((id) => active.includes(id))).toEqual([...active].sort());
  await expectMarkedAreIndexed(first.documentId);

  expect((await runAttempt(activity, second, crashed.details()).outcome).error).toBeUndefined();
  await expectAllIndexedAndMarked(second, active);

  keywords.releaseCrashed();
  await crashed.outcome;
  await expectAllIndexedAndMarked(second, active);
});

it('resumes from the details of a clean partial run without re-sending confirmed batches, also past a refusal', async () => {
  // Attempt 1 confirms two batches and then cannot reach the index; attempt 2 resumes and has
  // its batch refused; attempt 3 resumes again.
  const { keywords, deps, activity } = stageWith([
    [3, { kind: 'throw' }],
    [4, { kind: 'refuse', count: 1 }],
  ]);
  const { input, chunkIds } = await seedKeywordDocument(deps, 600);

  const first = runAttempt(activity, input);
  expectRetryableFailure(await first.outcome);
  expect(first.details()).toMatchObject({ lastChunkIndex: 399, done: 400 });
  expect(await indexed(input.documentId)).toEqual(chunkIds.slice(0, 400).sort());

  const second = runAttempt(activity, input, first.details());
  expectRetryableFailure(await second.outcome);
  expect(keywords.calls[3]).toEqual(chunkIds.slice(400));
  await expectMarkedAreIndexed(input.documentId);

  const third = runAttempt(activity, input, second.details());
  expect((await third.outcome).error).toBeUndefined();
  expect(keywords.calls.map((ids) => ids[0])).toEqual([
    chunkIds[0],
    chunkIds[200],
    chunkIds[400],
    chunkIds[400],
    chunkIds[400],
  ]);
  await expectAllIndexedAndMarked(input, chunkIds);
});

import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '../../activities/deps';
import { createVectorizingActivity } from '../../activities/stages/vectorizing';
import { WINDOW_VECTOR_BYTES } from '../../activities/stages/windowQuota';
import { BGE_MODEL_IDENTITIES } from '../../contracts/localModel';
import type { StageInput } from '../../contracts/ingest';
import { createDb } from '../../db/connection';
import { replaceChunks } from '../../db/repositories/chunks';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { createBgeEmbedders, type BgeEmbedders } from '../../embedders/bgeEmbedder';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { partialDeps, runAttempt } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL, testConfig } from '../../testkit/harness/testConfig';

// VECTORIZING with the second dense vector on (SLUICE_LANGUAGE_DENSE=on): each chunk also gets the
// vector of its language's bge model (the real models), checkpointed per chunk like the first.

const db = createDb(TEST_DATABASE_URL, 4);
const vectors = createPostgresVectorStore(db);
let bge: BgeEmbedders;
beforeAll(() => {
  bge = createBgeEmbedders({ modelDir: testConfig().embedding.localModel.dir, threads: 2, maxTokens: 128 });
});
afterAll(async () => {
  await bge?.close();
  await db.destroy();
});

const TEXTS = [
  'The worker retries a failed task with exponential back-off.',
  '工作进程会自动重试失败的任务。',
  'Checkpoints live in Postgres, not only in workflow history.',
  '向量写入按块编号更新。',
  'Deleting a document removes its vectors first.',
];

/** A chunk of six sentences: several passage windows (chunker/passageWindows.ts). */
const LONG = `Operations › Durability\n${[
  'The worker keeps a heartbeat while it embeds a document.',
  'A retry resumes from the last batch it marked.',
  'Deleting a document removes its vectors before its rows.',
  'Search fuses dense, sparse and keyword lists by reciprocal rank.',
  'A chunk in Chinese is embedded by the Chinese model.',
  'Passage windows let a question match the one sentence that answers it.',
].join(' ')}`;

async function seed(texts: string[] = TEXTS): Promise<StageInput> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: `ds-${randomUUID()}` };
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'mixed.md',
    size_bytes: 1,
    content_sha256: randomUUID(),
    source_object_key: `sources/${doc.documentId}`,
  });
  await replaceChunks(
    db,
    { ...doc, generation: 0 },
    texts.map((text, i) => ({
      chunkId: `${doc.documentId}:${i}`,
      chunkIndex: i,
      kind: 'child' as const,
      parentId: null,
      childRange: null,
      sectionPath: [],
      text,
      charCount: text.length,
      tokenCount: 8,
    })),
  );
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(db, {
    taskId: input.taskId,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    inherited: { CLEANING: 1, CHUNKING: 1 },
  });
  return input;
}

/** The first vector's embedder, counting the texts it is given. */
function countingEmbedder() {
  const real = createLocalHashEmbedder({ dimension: 8 });
  const embedded: string[] = [];
  return { embedded, embedder: { ...real, embed: (texts: string[]) => (embedded.push(...texts), real.embed(texts)) } };
}

function depsWith(
  embedder: ReturnType<typeof countingEmbedder>['embedder'],
  languageEmbedders: BgeEmbedders | null,
  passageWindows = true,
  maxWindowsPerDocument = 20_000,
  quotaBytes = 1e12,
) {
  return partialDeps({
    db,
    vectors,
    embedders: singleEmbedderResolver(embedder),
    languageEmbedders,
    settings: {
      embedBatchSize: 2,
      passageWindows,
      maxWindowsPerDocument,
      quota: { maxBytes: quotaBytes, maxDocuments: 1_000_000 },
    } as ActivityDeps['settings'],
  });
}

const languageRows = (documentId: string) =>
  db
    .selectFrom('chunks')
    .leftJoin('language_dense_vectors as v', 'v.chunk_id', 'chunks.chunk_id')
    .select(['chunks.chunk_index', 'chunks.language_dense_status', 'chunks.language_embedding_model', 'v.dimension'])
    .where('chunks.document_id', '=', documentId)
    .orderBy('chunks.chunk_index')
    .execute();

it('writes each chunk’s second vector with the bge model of its language, and marks it', async () => {
  const input = await seed();
  const first = countingEmbedder();
  const { result } = await runAttempt(createVectorizingActivity(depsWith(first.embedder, bge)), input).outcome;
  expect(result).toEqual({ stage: 'VECTORIZING', skipped: false, items: 5 });
  expect(first.embedded).toEqual(TEXTS);
  const { en, zh } = BGE_MODEL_IDENTITIES;
  expect(await languageRows(input.documentId)).toEqual([
    { chunk_index: 0, language_dense_status: 'SUCCESS', language_embedding_model: en.name, dimension: en.dimension },
    { chunk_index: 1, language_dense_status: 'SUCCESS', language_embedding_model: zh.name, dimension: zh.dimension },
    { chunk_index: 2, language_dense_status: 'SUCCESS', language_embedding_model: en.name, dimension: en.dimension },
    { chunk_index: 3, language_dense_status: 'SUCCESS', language_embedding_model: zh.name, dimension: zh.dimension },
    { chunk_index: 4, language_dense_status: 'SUCCESS', language_embedding_model: en.name, dimension: en.dimension },
  ]);
  // Searchable in its own kind: a Chinese query by the Chinese model finds a Chinese chunk first.
  const query = await bge.of('zh').embedQuery('失败的任务会重试吗');
  const hits = await vectors.searchLanguageDense(input, { model: zh.name, dimension: zh.dimension }, query, 2);
  expect(hits[0]?.chunkId).toBe(`${input.documentId}:1`);
});

it('turned on after a document was embedded, a new run writes only the second vectors: no chunk embedded twice', async () => {
  const input = await seed();
  const before = countingEmbedder();
  await runAttempt(createVectorizingActivity(depsWith(before.embedder, null)), input).outcome;
  expect(before.embedded).toHaveLength(5);
  expect((await languageRows(input.documentId)).every((r) => r.language_dense_status === 'PENDING')).toBe(true);

  const after = countingEmbedder();
  const retry = { ...input, taskId: randomUUID() };
  await insertTaskWithPipeline(db, {
    taskId: retry.taskId,
    documentId: input.documentId,
    ownerRunChain: randomUUID(),
    inherited: { CLEANING: 1, CHUNKING: 1 },
  });
  const { result } = await runAttempt(createVectorizingActivity(depsWith(after.embedder, bge)), retry).outcome;
  expect(result?.items).toBe(5);
  expect(after.embedded).toEqual([]);
  expect((await languageRows(input.documentId)).every((r) => r.language_dense_status === 'SUCCESS')).toBe(true);
});

it('a failing language model fails the attempt retryable after the batches already marked, and the retry writes the rest', async () => {
  const input = await seed();
  let calls = 0;
  const flaky: BgeEmbedders = {
    of: (language) => {
      const real = bge.of(language);
      return {
        ...real,
        embed: (texts) => {
          calls += 1;
          return calls === 3 ? Promise.reject(new Error('socket hang up')) : real.embed(texts);
        },
      };
    },
    close: () => Promise.resolve(),
  };
  const first = countingEmbedder();
  const attempt = runAttempt(createVectorizingActivity(depsWith(first.embedder, flaky)), input);
  const { error } = await attempt.outcome;
  expect(error).toBeInstanceOf(ApplicationFailure);
  expect(error).toMatchObject({ type: 'VECTORIZING_FAILED', nonRetryable: false });
  const done = (await languageRows(input.documentId)).filter((r) => r.language_dense_status === 'SUCCESS');
  expect(done.map((r) => r.chunk_index)).toEqual([0, 1]);

  const { result } = await runAttempt(
    createVectorizingActivity(depsWith(first.embedder, bge)),
    input,
    attempt.details(),
  ).outcome;
  expect(result?.items).toBe(3);
  // The first vector of the failed batch was written before the second failed: not embedded again.
  expect(first.embedded).toEqual(TEXTS);
  expect((await languageRows(input.documentId)).every((r) => r.language_dense_status === 'SUCCESS')).toBe(true);
});

it('writes the passage windows of a chunk of several sentences with its second vector, scored for search, removed with the document', async () => {
  const input = await seed([LONG, TEXTS[1] as string]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge)), input).outcome;
  const windows = await db
    .selectFrom('window_dense_vectors')
    .select(['chunk_id', 'model'])
    .where('document_id', '=', input.documentId)
    .execute();
  const { en } = BGE_MODEL_IDENTITIES;
  // The long chunk has windows of the English model; the one-sentence Chinese chunk has none.
  expect(windows.length).toBeGreaterThan(1);
  expect(new Set(windows.map((w) => `${w.chunk_id} ${w.model}`))).toEqual(
    new Set([`${input.documentId}:0 ${en.name}`]),
  );
  expect((await vectors.countForDocument(input.documentId)).dense).toBe(2 + 2 + windows.length);
  const query = await bge.of('en').embedQuery('what happens to the vectors when I delete a file?');
  const hits = await vectors.scorePassageWindows(input, { model: en.name, dimension: en.dimension }, query, [
    `${input.documentId}:0`,
    `${input.documentId}:1`,
  ]);
  // Only the chunk with windows is scored (the one-sentence Chinese chunk has none).
  expect(hits.map((h) => h.chunkId)).toEqual([`${input.documentId}:0`]);
  await vectors.deleteDocument(input, input.documentId);
  expect((await vectors.countForDocument(input.documentId)).dense).toBe(0);
});

it('caps the windows of a whole document: each chunk its share, none where fewer than two fit', async () => {
  const many = `Operations › Limits\n${Array.from({ length: 40 }, (_, i) => `Limit ${i} bounds one more thing a tenant can cost.`).join(' ')}`;
  const roomy = await seed([many, many]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge, true, 6)), roomy).outcome;
  const windowsOf = async (documentId: string) =>
    db.selectFrom('window_dense_vectors').select('chunk_id').where('document_id', '=', documentId).execute();
  const shared = await windowsOf(roomy.documentId);
  // 6 for the document: at most 3 for each of its 2 chunks, which uncapped have more.
  const first = shared.filter((w) => w.chunk_id === `${roomy.documentId}:0`).length;
  expect(first).toBeGreaterThanOrEqual(2);
  expect(first).toBeLessThanOrEqual(3);
  expect(shared.length).toBeLessThanOrEqual(6);
  const uncapped = await seed([many]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge)), uncapped).outcome;
  expect((await windowsOf(uncapped.documentId)).length).toBeGreaterThan(3);
  const tight = await seed([many, many]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge, true, 3)), tight).outcome;
  expect(await windowsOf(tight.documentId)).toEqual([]);
  expect((await languageRows(tight.documentId)).map((r) => r.language_dense_status)).toEqual(['SUCCESS', 'SUCCESS']);
});

it('with SLUICE_PASSAGE_WINDOWS=off writes the second vector and no passage window', async () => {
  const input = await seed([LONG]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge, false)), input).outcome;
  expect((await languageRows(input.documentId)).map((r) => r.language_dense_status)).toEqual(['SUCCESS']);
  // The first vector and the second: no window.
  expect((await vectors.countForDocument(input.documentId)).dense).toBe(2);
});

it("charges the windows at their cap to the user's quota before embedding one, and refuses them past it", async () => {
  const windowBytes = async (documentId: string) =>
    Number(
      (await db.selectFrom('documents').select('window_bytes').where('id', '=', documentId).executeTakeFirstOrThrow())
        .window_bytes,
    );
  // Six chunks and at most 12 windows each (20,000 per document is no bound here): 72 vectors of 1,536 bytes.
  const roomy = await seed([LONG, LONG, LONG, LONG, LONG, LONG]);
  await runAttempt(createVectorizingActivity(depsWith(countingEmbedder().embedder, bge)), roomy).outcome;
  expect(await windowBytes(roomy.documentId)).toBe(6 * 12 * WINDOW_VECTOR_BYTES);

  // The user's upload (1 byte) leaves less than that: refused before any window is embedded.
  const tight = await seed([LONG, LONG, LONG, LONG, LONG, LONG]);
  const { error } = await runAttempt(
    createVectorizingActivity(depsWith(countingEmbedder().embedder, bge, true, 20_000, 6 * 12 * WINDOW_VECTOR_BYTES)),
    tight,
  ).outcome;
  expect(error).toMatchObject({ type: 'QUOTA_EXCEEDED', nonRetryable: true });
  expect(await windowBytes(tight.documentId)).toBe(0);
  const windows = await db
    .selectFrom('window_dense_vectors')
    .select('chunk_id')
    .where('document_id', '=', tight.documentId)
    .execute();
  expect(windows).toHaveLength(0);
});

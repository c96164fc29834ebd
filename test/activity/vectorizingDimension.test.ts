import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '../../activities/deps';
import { createVectorizingActivity } from '../../activities/stages/vectorizing';
import type { StageInput } from '../../contracts/ingest';
import { createDb } from '../../db/connection';
import { countChunks } from '../../db/repositories/chunks';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { dimensionMismatch } from '../../stores/dimensionMismatch';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import type { VectorStore } from '../../stores/ports';
import { partialDeps, runAttempt, seedStageTask } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// A dimension mismatch in VECTORIZING, wherever it arises, is a permanent
// EMBEDDING_DIMENSION_UNSUPPORTED naming the model and the store; a store that is down is the
// stage's retryable VECTORIZING_FAILED. Neither is an unclassified INTERNAL_UNKNOWN_ERROR.

const db = createDb(TEST_DATABASE_URL, 4);
afterAll(() => db.destroy());

const hash = createLocalHashEmbedder({ dimension: 8 });
const embedder = { ...hash, model: 'dim-test-model' };

async function failureOf(vectors: VectorStore, embed = embedder): Promise<{ error: unknown; input: StageInput }> {
  const input = await seedStageTask(db, 3, ['CLEANING', 'CHUNKING']);
  const deps = partialDeps({
    db,
    vectors,
    embedders: singleEmbedderResolver(embed),
    languageEmbedders: null,
    settings: { embedBatchSize: 10 } as ActivityDeps['settings'],
  });
  const { error } = await runAttempt(createVectorizingActivity(deps), input).outcome;
  return { error, input };
}

function expectDimensionFailure(error: unknown, store: string): void {
  expect(error).toBeInstanceOf(ApplicationFailure);
  expect(error).toMatchObject({ type: 'EMBEDDING_DIMENSION_UNSUPPORTED', nonRetryable: true });
  expect((error as Error).message).toContain(embedder.model);
  expect((error as Error).message).toContain(store);
}

it('a provider answering with another dimension than configured fails permanently, naming model and store', async () => {
  const vectors = createPostgresVectorStore(db);
  const short = { ...embedder, embed: async (texts: string[]) => (await hash.embed(texts)).map((v) => v.slice(1)) };
  const { error, input } = await failureOf(vectors, short);
  expectDimensionFailure(error, vectors.name);
  expect((error as Error).message).toContain('7 dimensions');
  expect((await countChunks(db, input.documentId)).dense).toBe(0);
});

it("the store's refusal of the model's dimension stays a permanent EMBEDDING_DIMENSION_UNSUPPORTED", async () => {
  const real = createPostgresVectorStore(db);
  const vectors: VectorStore = {
    ...real,
    name: 'Qdrant collections refusing*',
    upsertDense: (_scope, model) =>
      Promise.reject(
        dimensionMismatch(model, 'Qdrant collection refusing', 'the collection holds 4-dimensional vectors'),
      ),
  };
  const { error } = await failureOf(vectors);
  expectDimensionFailure(error, 'Qdrant collection refusing');
});

it('a vector store that cannot be reached is the retryable VECTORIZING_FAILED', async () => {
  const real = createPostgresVectorStore(db);
  const vectors: VectorStore = {
    ...real,
    upsertDense: () => Promise.reject(new Error('fetch failed: connect ECONNREFUSED')),
  };
  const { error } = await failureOf(vectors);
  expect(error).toBeInstanceOf(ApplicationFailure);
  expect(error).toMatchObject({ type: 'VECTORIZING_FAILED', nonRetryable: false });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDb } from '../../db/connection';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';
import { newScope, unitVector } from '../../testkit/harness/vectorStoreContract';

// The Postgres store narrows a dataset larger than its rerank depth by sign bits before
// scoring exactly (stores/postgresDenseTable.ts): the nearest vectors must still come first.

const db = createDb(TEST_DATABASE_URL, 2);
afterAll(() => db.destroy());

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
}

it('beyond the exact-scan size, a query still finds the exact nearest vectors first, in both tables', async () => {
  const candidates = 200;
  const store = createPostgresVectorStore(db, { rerankCandidates: candidates });
  const scope = newScope();
  const model = { model: `coarse-${randomUUID().slice(0, 8)}`, dimension: 64 };
  const next = random(7);
  const doc = randomUUID();
  const records = Array.from({ length: candidates * 5 }, (_, i) => ({
    chunkId: `${doc}-${i}`,
    documentId: doc,
    vector: unitVector(Array.from({ length: model.dimension }, next)),
  }));
  await store.upsertDense(scope, model, records);
  await store.upsertLanguageDense(scope, model, records);
  // Each query is a stored vector slightly disturbed: that vector is the nearest one.
  for (const target of [3, 500, 900]) {
    const query = unitVector((records[target]?.vector ?? []).map((v) => v + next() * 0.05));
    const exact = records
      .map((r) => ({ id: r.chunkId, score: r.vector.reduce((s, v, i) => s + v * (query[i] ?? 0), 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map((r) => r.id);
    expect(exact[0]).toBe(`${doc}-${target}`);
    const dense = await store.searchDense(scope, model, query, 5);
    const language = await store.searchLanguageDense(scope, model, query, 5);
    expect(dense[0]?.chunkId).toBe(`${doc}-${target}`);
    expect(language[0]?.chunkId).toBe(`${doc}-${target}`);
    // The scores are the exact cosines of the vectors kept.
    expect(dense[0]?.score).toBeCloseTo(
      records[target]?.vector.reduce((s, v, i) => s + v * (query[i] ?? 0), 0) ?? 0,
      5,
    );
  }
});

it('keeps each vector quantized as the search reads it: round(127 x / max|x|) + 128, and 128 for a zero vector', async () => {
  const store = createPostgresVectorStore(db);
  const scope = newScope();
  const model = { model: `quantized-${randomUUID().slice(0, 8)}`, dimension: 4 };
  const doc = randomUUID();
  await store.upsertDense(scope, model, [
    { chunkId: `${doc}-a`, documentId: doc, vector: [0.5, -0.25, 0.1, -1] },
    { chunkId: `${doc}-zero`, documentId: doc, vector: [0, 0, 0, 0] },
  ]);
  await store.upsertLanguageDense(scope, model, [{ chunkId: `${doc}-a`, documentId: doc, vector: [2, 1, 0, -2] }]);
  const bytes = async (table: 'dense_vectors' | 'language_dense_vectors', id: string) => {
    const row = await db.selectFrom(table).select('quantized').where('chunk_id', '=', id).executeTakeFirstOrThrow();
    return [...row.quantized];
  };
  expect(await bytes('dense_vectors', `${doc}-a`)).toEqual([64 + 128, -32 + 128, 13 + 128, -127 + 128]);
  expect(await bytes('dense_vectors', `${doc}-zero`)).toEqual([128, 128, 128, 128]);
  expect(await bytes('language_dense_vectors', `${doc}-a`)).toEqual([127 + 128, 64 + 128, 128, -127 + 128]);
});

it('can rank by sign bits from the tenant index alone, within cells, without reading table rows', async () => {
  // The index carries the bits and the chunk id, so the first pass can be an index-only scan.
  const { rows } = await sql<{ indexdef: string }>`
    SELECT indexdef FROM pg_indexes
     WHERE indexname IN ('dense_vectors_tenant_model_idx', 'language_dense_vectors_tenant_model_idx')`.execute(db);
  expect(rows).toHaveLength(2);
  for (const { indexdef } of rows) {
    expect(indexdef).toContain('(user_id, dataset_id, model, dimension, cell) INCLUDE (sign_bits, chunk_id)');
  }
});

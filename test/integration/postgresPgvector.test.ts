import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDb } from '../../db/connection';
import { hnswIndexName } from '../../db/pgvector';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';
import { newScope, unitVector } from '../../testkit/harness/vectorStoreContract';

// The Postgres store on pgvector (stores/postgresDenseTable.ts, db/pgvector.ts): an HNSW index per
// model and dimension in each dense table, searched with the tenant filter inside the scan.

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

const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

function vectorsOf(doc: string, count: number, dimension: number, next: () => number) {
  return Array.from({ length: count }, (_, i) => ({
    chunkId: `${doc}-${i}`,
    documentId: doc,
    vector: unitVector(Array.from({ length: dimension }, next)),
  }));
}

const indexDefinition = async (name: string) =>
  (await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = ${name}`.execute(db)).rows[0]
    ?.indexdef;

it('gives each model its own HNSW index on its first write, in both dense tables, and uses it', async () => {
  const store = createPostgresVectorStore(db);
  const scope = newScope();
  const model = { model: `hnsw-${randomUUID().slice(0, 8)}`, dimension: 64 };
  const records = vectorsOf(randomUUID(), 300, model.dimension, random(3));
  await store.upsertDense(scope, model, records);
  await store.upsertLanguageDense(scope, model, records);
  for (const table of ['dense_vectors', 'language_dense_vectors'] as const) {
    const definition = await indexDefinition(hnswIndexName(table, model));
    expect(definition).toContain('USING hnsw');
    expect(definition).toContain('vector_cosine_ops');
    expect(definition).toContain(`'${model.model}'`);
  }
  // The search's plan walks that index (the tenant filter applied inside the scan).
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT chunk_id FROM dense_vectors
       WHERE model = ${sql.lit(model.model)} AND dimension = 64 AND user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
       ORDER BY (vector::vector(64)) <=> ${`[${records[0]?.vector.join(',')}]`}::vector(64) LIMIT 5`.execute(trx);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(hnswIndexName('dense_vectors', model));
  });
});

it('finds the exact nearest vectors first with exact cosines, in both tables', async () => {
  const store = createPostgresVectorStore(db);
  const scope = newScope();
  const model = { model: `near-${randomUUID().slice(0, 8)}`, dimension: 64 };
  const next = random(7);
  const doc = randomUUID();
  const records = vectorsOf(doc, 1000, model.dimension, next);
  await store.upsertDense(scope, model, records);
  await store.upsertLanguageDense(scope, model, records);
  for (const target of [3, 500, 900]) {
    const query = unitVector((records[target]?.vector ?? []).map((v) => v + next() * 0.05));
    const dense = await store.searchDense(scope, model, query, 5);
    const language = await store.searchLanguageDense(scope, model, query, 5);
    expect(dense[0]?.chunkId).toBe(`${doc}-${target}`);
    expect(language[0]?.chunkId).toBe(`${doc}-${target}`);
    expect(dense[0]?.score).toBeCloseTo(dot(records[target]?.vector ?? [], query), 5);
  }
});

it("returns the full list for a dataset that holds 1 % of a model's rows", async () => {
  const store = createPostgresVectorStore(db);
  const model = { model: `filter-${randomUUID().slice(0, 8)}`, dimension: 32 };
  const next = random(11);
  const crowd = newScope();
  await store.upsertDense(crowd, model, vectorsOf(randomUUID(), 4950, model.dimension, next));
  const small = newScope();
  const mine = vectorsOf(randomUUID(), 50, model.dimension, next);
  await store.upsertDense(small, model, mine);
  await sql`ANALYZE dense_vectors`.execute(db);
  const query = unitVector(Array.from({ length: model.dimension }, next));
  const hits = await store.searchDense(small, model, query, 20);
  expect(hits).toHaveLength(20);
  const exact = mine
    .map((r) => ({ id: r.chunkId, score: dot(r.vector, query) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 20)
    .map((r) => r.id);
  expect(hits.map((h) => h.chunkId)).toEqual(exact);
});

// pgvector's cosine HNSW index leaves zero vectors out (they have no direction), so whether one is
// returned depends on the planner's path: the exact path scores it 0, the index walk never meets it.
it('a zero vector fails no search: it scores 0 where it is returned, never above a real match', async () => {
  const store = createPostgresVectorStore(db);
  const scope = newScope();
  const model = { model: `zero-${randomUUID().slice(0, 8)}`, dimension: 4 };
  const doc = randomUUID();
  await store.upsertDense(scope, model, [
    { chunkId: `${doc}-zero`, documentId: doc, vector: [0, 0, 0, 0] },
    { chunkId: `${doc}-a`, documentId: doc, vector: unitVector([1, 1, 0, 0]) },
  ]);
  const hits = await store.searchDense(scope, model, unitVector([1, 0, 0, 0]), 5);
  expect(hits[0]?.chunkId).toBe(`${doc}-a`);
  expect(hits.length).toBeLessThanOrEqual(2);
  for (const hit of hits.slice(1)) expect(hit).toEqual({ chunkId: `${doc}-zero`, score: 0 });
});

it('indexes a model past 2,000 dimensions as halfvec', async () => {
  const store = createPostgresVectorStore(db);
  const scope = newScope();
  const model = { model: `wide-${randomUUID().slice(0, 8)}`, dimension: 3072 };
  const records = vectorsOf(randomUUID(), 20, model.dimension, random(5));
  await store.upsertDense(scope, model, records);
  expect(await indexDefinition(hnswIndexName('dense_vectors', model))).toContain('halfvec_cosine_ops');
  const hits = await store.searchDense(scope, model, records[7]?.vector ?? [], 3);
  expect(hits[0]?.chunkId).toBe(records[7]?.chunkId);
});

import { randomUUID } from 'node:crypto';
import { createDb } from '../../db/connection';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { TEST_DATABASE_URL } from '../support/testConfig';
import { newScope, unitVector } from '../support/vectorStoreContract';

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

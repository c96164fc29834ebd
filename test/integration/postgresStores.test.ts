import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDb } from '../../db/connection';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { ObjectNotFoundError } from '../../stores/ports';
import { TEST_DATABASE_URL } from '../support/testConfig';

// Contract tests of the embedded-default adapters, against the real Postgres of the stack.
const db = createDb(TEST_DATABASE_URL, 4);
afterAll(() => db.destroy());

const unit = (values: number[]) => {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
};

describe('Postgres vector store', () => {
  const vectors = createPostgresVectorStore(db);
  const model = { model: 'test-model', dimension: 3 };

  it('upserts by chunk id, searches exactly within the tenant, and deletes by document', async () => {
    const scope = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    const other = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    const doc = randomUUID();
    await vectors.upsertDense(scope, model, [
      { chunkId: `${doc}-a`, documentId: doc, vector: unit([1, 0, 0]) },
      { chunkId: `${doc}-b`, documentId: doc, vector: unit([0, 1, 0]) },
    ]);
    // Writing the same chunk again replaces it rather than adding a second vector.
    await vectors.upsertDense(scope, model, [{ chunkId: `${doc}-a`, documentId: doc, vector: unit([1, 1, 0]) }]);
    await vectors.upsertDense(other, model, [{ chunkId: `${doc}-x`, documentId: doc, vector: unit([1, 0, 0]) }]);

    expect((await vectors.countForDocument(doc)).dense).toBe(3);
    const hits = await vectors.searchDense(scope, unit([0, 1, 0]), 10);
    expect(hits.map((h) => h.chunkId)).toEqual([`${doc}-b`, `${doc}-a`]);
    expect(hits[0]?.score).toBeCloseTo(1, 5);
    expect(hits[1]?.score).toBeCloseTo(Math.SQRT1_2, 5);

    await vectors.deleteDocument(scope, doc);
    expect(await vectors.searchDense(scope, unit([0, 1, 0]), 10)).toEqual([]);
    expect((await vectors.searchDense(other, unit([1, 0, 0]), 10)).map((h) => h.chunkId)).toEqual([`${doc}-x`]);
  });

  it('refuses a vector whose dimension differs from the model', async () => {
    const scope = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    await expect(vectors.upsertDense(scope, model, [{ chunkId: 'c', documentId: 'd', vector: [1, 0] }])).rejects.toThrow(/2 dimensions/);
  });

  it('ranks sparse matches with IDF so a rare shared term outweighs a common one', async () => {
    const scope = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    const doc = randomUUID();
    // Term 1 is in every chunk; term 7 only in chunk "rare".
    await vectors.upsertSparse(scope, [
      { chunkId: `${doc}-common`, documentId: doc, sparse: { indices: [1, 2], values: [2, 1] } },
      { chunkId: `${doc}-rare`, documentId: doc, sparse: { indices: [1, 7], values: [1, 1] } },
      { chunkId: `${doc}-other`, documentId: doc, sparse: { indices: [1, 3], values: [1, 1] } },
    ]);
    const hits = await vectors.searchSparse(scope, { indices: [1, 7], values: [1, 1] }, 10);
    expect(hits[0]?.chunkId).toBe(`${doc}-rare`);
    expect(hits).toHaveLength(3);
    await vectors.deleteChunks(scope, [`${doc}-rare`]);
    expect((await vectors.countForDocument(doc)).sparse).toBe(2);
  });
});

describe('Postgres keyword index', () => {
  const keywords = createPostgresKeywordIndex(db);

  it('finds entries by pretokenized terms, only within the tenant, and deletes by document', async () => {
    await keywords.ensureIndex();
    const scope = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    const stranger = { userId: `u-${randomUUID()}`, datasetId: 'ds' };
    const doc = randomUUID();
    const entry = (id: string, tokens: string[]) => ({ chunkId: `${doc}-${id}`, documentId: doc, fileName: 'f.md', text: tokens.join(' '), tokens });
    const result = await keywords.bulkIndex(scope, [entry('1', ['pg_stat_activity', 'view']), entry('2', ['向量', '检索'])]);
    expect(result.failedChunkIds).toEqual([]);
    await keywords.bulkIndex(stranger, [{ ...entry('3', ['向量']), chunkId: `${doc}-stranger` }]);

    expect((await keywords.search(scope, ['pg_stat_activity'], 10)).map((h) => h.chunkId)).toEqual([`${doc}-1`]);
    expect((await keywords.search(scope, ['向量'], 10)).map((h) => h.chunkId)).toEqual([`${doc}-2`]);
    expect(await keywords.search(scope, ['absent'], 10)).toEqual([]);

    await keywords.deleteDocument(scope, doc);
    expect(await keywords.search(scope, ['向量'], 10)).toEqual([]);
    expect(await keywords.countForDocument(doc)).toBe(1);
  });
});

describe('local object store', () => {
  const root = path.join(os.tmpdir(), `sluice-objects-${randomUUID()}`);
  const objects = createLocalObjectStore(root);

  it('streams objects in and out, reports missing keys, and deletes by prefix', async () => {
    const { sizeBytes } = await objects.putStream('documents/u/d1/source', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(sizeBytes).toBe(11);
    await objects.putText('documents/u/d1/markdown/t.md', '# title');
    expect(await objects.getText('documents/u/d1/source')).toBe('hello world');
    expect(await objects.exists('documents/u/d1/markdown/t.md')).toBe(true);
    await expect(objects.getText('documents/u/missing')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await objects.deletePrefix('documents/u/d1/')).toBe(2);
    expect(await objects.exists('documents/u/d1/source')).toBe(false);
  });

  it('refuses keys that could escape its root', async () => {
    await expect(objects.putText('../escape', 'x')).rejects.toThrow(/invalid object key/);
  });
});

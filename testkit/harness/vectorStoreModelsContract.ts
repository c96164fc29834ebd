import { randomUUID } from 'node:crypto';
import { SluiceError } from '../../contracts/sluiceError';
import type { EmbeddingModelRef, VectorStore } from '../../stores/ports';
import { axis, newScope } from './vectorStoreContract';

/** A unit vector of `dimension` pointing along axis `axis`, tilted by `tilt` towards the next one. */

async function classified(promise: Promise<unknown>): Promise<SluiceError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SluiceError)) throw new Error(`expected a SluiceError, got ${String(error)}`);
  return error;
}

/**
 * The multi-model half of the vector store contract: one store serves every model a
 * tenant configures, in any mix of dimensions. `make` is called once per worker: each call is a
 * new adapter instance over the same storage, as two worker processes would hold.
 */
export function describeVectorStoreModelsContract(name: string, make: () => Promise<VectorStore>): void {
  describe(`${name} (vector store contract: many models)`, () => {
    const small: EmbeddingModelRef = { model: `small-${randomUUID().slice(0, 8)}`, dimension: 3 };
    const large: EmbeddingModelRef = { model: `org/Large Model ${randomUUID().slice(0, 8)}`, dimension: 5 };
    let vectors: VectorStore;
    beforeAll(async () => {
      vectors = await make();
    });
    const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);

    it('holds two models of different dimensions in one dataset and searches each model alone', async () => {
      const scope = newScope();
      const [docA, docB] = [randomUUID(), randomUUID()];
      await vectors.upsertDense(scope, small, [
        { chunkId: `${docA}-1`, documentId: docA, vector: axis(3, 0) },
        { chunkId: `${docA}-2`, documentId: docA, vector: axis(3, 1) },
      ]);
      await vectors.upsertDense(scope, large, [{ chunkId: `${docB}-1`, documentId: docB, vector: axis(5, 0) }]);

      expect(ids(await vectors.searchDense(scope, small, axis(3, 0, 0.5), 10))).toEqual([`${docA}-1`, `${docA}-2`]);
      expect(ids(await vectors.searchDense(scope, large, axis(5, 0), 10))).toEqual([`${docB}-1`]);
      // A model is its name and its dimension: the same name at another size is another model.
      expect(await vectors.searchDense(scope, { ...small, dimension: 5 }, axis(5, 0), 10)).toEqual([]);
      expect(
        await vectors.searchDense(scope, { model: `never-${randomUUID()}`, dimension: 3 }, axis(3, 0), 10),
      ).toEqual([]);
      expect(await vectors.countForDocument(docA)).toEqual({ dense: 2, sparse: 0 });
      expect(await vectors.countForDocument(docB)).toEqual({ dense: 1, sparse: 0 });
    });

    it('moves a re-embedded chunk to the new model and keeps its sparse vector', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const [a, b] = [`${doc}-a`, `${doc}-b`];
      await vectors.upsertDense(scope, small, [
        { chunkId: a, documentId: doc, vector: axis(3, 0) },
        { chunkId: b, documentId: doc, vector: axis(3, 1) },
      ]);
      await vectors.upsertSparse(scope, [{ chunkId: a, documentId: doc, sparse: { indices: [41], values: [1] } }]);

      // Half way through a re-embedding, each model answers for the chunks it made.
      await vectors.upsertDense(scope, large, [{ chunkId: a, documentId: doc, vector: axis(5, 2) }]);
      expect(ids(await vectors.searchDense(scope, small, axis(3, 0), 10))).toEqual([b]);
      expect(ids(await vectors.searchDense(scope, large, axis(5, 2), 10))).toEqual([a]);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 2, sparse: 1 });

      await vectors.upsertDense(scope, large, [{ chunkId: b, documentId: doc, vector: axis(5, 3) }]);
      expect(await vectors.searchDense(scope, small, axis(3, 0), 10)).toEqual([]);
      expect(ids(await vectors.searchDense(scope, large, axis(5, 2), 10))).toEqual([a, b]);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 2, sparse: 1 });
      expect(ids(await vectors.searchSparse(scope, { indices: [41], values: [1] }, 10))).toEqual([a]);
    });

    it('deletes a document and chunks from every model, only within the tenant', async () => {
      const scope = newScope();
      const stranger = newScope();
      const [doc, kept] = [randomUUID(), randomUUID()];
      await vectors.upsertDense(scope, small, [
        { chunkId: `${doc}-1`, documentId: doc, vector: axis(3, 0) },
        { chunkId: `${kept}-1`, documentId: kept, vector: axis(3, 0) },
      ]);
      await vectors.upsertDense(scope, large, [
        { chunkId: `${doc}-2`, documentId: doc, vector: axis(5, 0) },
        { chunkId: `${doc}-3`, documentId: doc, vector: axis(5, 1) },
        { chunkId: `${kept}-2`, documentId: kept, vector: axis(5, 0) },
      ]);
      await vectors.upsertSparse(scope, [
        { chunkId: `${doc}-1`, documentId: doc, sparse: { indices: [42], values: [1] } },
      ]);

      await vectors.deleteDocument(stranger, doc);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 3, sparse: 1 });

      await vectors.deleteChunks(scope, [`${doc}-3`]);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 2, sparse: 1 });
      await vectors.deleteDocument(scope, doc);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 0, sparse: 0 });
      expect(ids(await vectors.searchDense(scope, small, axis(3, 0), 10))).toEqual([`${kept}-1`]);
      expect(ids(await vectors.searchDense(scope, large, axis(5, 0), 10))).toEqual([`${kept}-2`]);
      expect(await vectors.countForDocument(kept)).toEqual({ dense: 2, sparse: 0 });
    });

    it('serves the concurrent first use of a new model from two workers', async () => {
      const fresh: EmbeddingModelRef = { model: `fresh-${randomUUID().slice(0, 8)}`, dimension: 4 };
      const workers = [await make(), await make()];
      const scope = newScope();
      const doc = randomUUID();
      const chunks = Array.from({ length: 8 }, (_, i) => ({
        chunkId: `${doc}-${i}`,
        documentId: doc,
        vector: axis(4, i % 4, i / 8),
      }));
      await Promise.all(
        workers.map((worker, w) =>
          worker.upsertDense(
            scope,
            fresh,
            chunks.filter((_, i) => i % 2 === w),
          ),
        ),
      );
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 8, sparse: 0 });
      const hits = await vectors.searchDense(scope, fresh, axis(4, 0), 10);
      expect(ids(hits).sort()).toEqual(chunks.map((c) => c.chunkId).sort());
    });

    it('refuses a vector or a query of another dimension than its model: permanent, naming model and store', async () => {
      const scope = newScope();
      const write = await classified(
        vectors.upsertDense(scope, small, [{ chunkId: `c-${randomUUID()}`, documentId: 'd', vector: [1, 0] }]),
      );
      const search = await classified(vectors.searchDense(scope, small, [1, 0, 0, 0], 5));
      for (const [error, size] of [
        [write, 2],
        [search, 4],
      ] as const) {
        expect(error).toMatchObject({ code: 'EMBEDDING_DIMENSION_UNSUPPORTED', permanent: true });
        expect(error.message).toContain(small.model);
        expect(error.message).toContain(vectors.name);
        expect(error.message).toContain(`${size} dimensions`);
      }
    });
  });
}

import { randomUUID } from 'node:crypto';
import type { TenantScope, VectorStore } from '../../stores/ports';

/** A unit vector in the direction of `values`. */
export const unitVector = (values: number[]): number[] => {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
};

/** A unit vector along axis `at`, tilted by `tilt` toward the next axis. */
export const axis = (dimension: number, at: number, tilt = 0): number[] =>
  unitVector(Array.from({ length: dimension }, (_, i) => (i === at ? 1 : i === (at + 1) % dimension ? tilt : 0)));

export const newScope = (): TenantScope => ({ userId: `u-${randomUUID()}`, datasetId: `ds-${randomUUID()}` });

/**
 * The behaviour every VectorStore adapter must share (docs/design.md §6). Each case writes under
 * fresh tenants and documents, so one store instance serves the whole suite and the cases
 * cannot see each other's data.
 */
export function describeVectorStoreContract(name: string, make: () => Promise<VectorStore>): void {
  describe(`${name} (vector store contract)`, () => {
    const model = { model: 'contract-model', dimension: 3 };
    let vectors: VectorStore;
    beforeAll(async () => {
      vectors = await make();
    });

    it('upserts by chunk id, ranks exactly within the tenant, and deletes by document', async () => {
      const scope = newScope();
      const other = newScope();
      const doc = randomUUID();
      await vectors.upsertDense(scope, model, [
        { chunkId: `${doc}-a`, documentId: doc, vector: unitVector([1, 0, 0]) },
        { chunkId: `${doc}-b`, documentId: doc, vector: unitVector([0, 1, 0]) },
      ]);
      // Writing the same chunk again replaces it rather than adding a second vector.
      await vectors.upsertDense(scope, model, [
        { chunkId: `${doc}-a`, documentId: doc, vector: unitVector([1, 1, 0]) },
      ]);
      await vectors.upsertDense(other, model, [
        { chunkId: `${doc}-x`, documentId: doc, vector: unitVector([1, 0, 0]) },
      ]);

      expect((await vectors.countForDocument(doc)).dense).toBe(3);
      const hits = await vectors.searchDense(scope, model, unitVector([0, 1, 0]), 10);
      expect(hits.map((h) => h.chunkId)).toEqual([`${doc}-b`, `${doc}-a`]);
      expect(hits[0]?.score).toBeCloseTo(1, 5);
      expect(hits[1]?.score).toBeCloseTo(Math.SQRT1_2, 5);
      expect((await vectors.searchDense(scope, model, unitVector([0, 1, 0]), 1)).map((h) => h.chunkId)).toEqual([
        `${doc}-b`,
      ]);

      await vectors.deleteDocument(scope, doc);
      expect(await vectors.searchDense(scope, model, unitVector([0, 1, 0]), 10)).toEqual([]);
      // The other tenant's chunk of a document with the same id is untouched.
      expect((await vectors.searchDense(other, model, unitVector([1, 0, 0]), 10)).map((h) => h.chunkId)).toEqual([
        `${doc}-x`,
      ]);
      expect((await vectors.countForDocument(doc)).dense).toBe(1);
    });

    it('searches only within the tenant: same user other dataset, same dataset other user', async () => {
      const scope = newScope();
      const otherDataset = { ...scope, datasetId: `ds-${randomUUID()}` };
      const otherUser = { ...scope, userId: `u-${randomUUID()}` };
      const doc = randomUUID();
      await vectors.upsertDense(scope, model, [
        { chunkId: `${doc}-mine`, documentId: doc, vector: unitVector([0, 0, 1]) },
      ]);
      await vectors.upsertSparse(scope, [
        { chunkId: `${doc}-mine`, documentId: doc, sparse: { indices: [11], values: [1] } },
      ]);
      for (const stranger of [otherDataset, otherUser]) {
        expect(await vectors.searchDense(stranger, model, unitVector([0, 0, 1]), 10)).toEqual([]);
        expect(await vectors.searchSparse(stranger, { indices: [11], values: [1] }, 10)).toEqual([]);
      }
      expect((await vectors.searchDense(scope, model, unitVector([0, 0, 1]), 10)).map((h) => h.chunkId)).toEqual([
        `${doc}-mine`,
      ]);
      expect((await vectors.searchSparse(scope, { indices: [11], values: [1] }, 10)).map((h) => h.chunkId)).toEqual([
        `${doc}-mine`,
      ]);
    });

    it('ranks sparse matches with IDF so a rare shared term outweighs a common one', async () => {
      const scope = newScope();
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
      expect(await vectors.searchSparse(scope, { indices: [], values: [] }, 10)).toEqual([]);
    });

    it('deletes chunks by id, only within the tenant', async () => {
      const scope = newScope();
      const stranger = newScope();
      const doc = randomUUID();
      const sparse = { indices: [5], values: [1] };
      await vectors.upsertSparse(
        scope,
        ['a', 'b', 'c'].map((id) => ({ chunkId: `${doc}-${id}`, documentId: doc, sparse })),
      );
      await vectors.upsertDense(
        scope,
        model,
        ['a', 'b', 'c'].map((id) => ({ chunkId: `${doc}-${id}`, documentId: doc, vector: unitVector([1, 0, 0]) })),
      );

      // A stranger naming our chunk ids deletes nothing.
      await vectors.deleteChunks(stranger, [`${doc}-a`]);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 3, sparse: 3 });

      await vectors.deleteChunks(scope, [`${doc}-a`, `${doc}-c`]);
      await vectors.deleteChunks(scope, []);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 1, sparse: 1 });
      expect((await vectors.searchSparse(scope, sparse, 10)).map((h) => h.chunkId)).toEqual([`${doc}-b`]);
      expect((await vectors.searchDense(scope, model, unitVector([1, 0, 0]), 10)).map((h) => h.chunkId)).toEqual([
        `${doc}-b`,
      ]);
    });

    it('keeps the sparse vector when the dense one is written, and the dense one when the sparse one is', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const [a, b] = [`${doc}-a`, `${doc}-b`];
      // a: dense first, then sparse; b: sparse first, then dense.
      await vectors.upsertDense(scope, model, [{ chunkId: a, documentId: doc, vector: unitVector([1, 0, 0]) }]);
      await vectors.upsertSparse(scope, [
        { chunkId: a, documentId: doc, sparse: { indices: [21], values: [1] } },
        { chunkId: b, documentId: doc, sparse: { indices: [22], values: [1] } },
      ]);
      await vectors.upsertDense(scope, model, [{ chunkId: b, documentId: doc, vector: unitVector([0, 1, 0]) }]);
      // Re-writing one kind again (a retry, a re-embedding) must not drop the other kind either.
      await vectors.upsertDense(scope, model, [{ chunkId: a, documentId: doc, vector: unitVector([1, 0.1, 0]) }]);
      await vectors.upsertSparse(scope, [
        { chunkId: b, documentId: doc, sparse: { indices: [22, 23], values: [1, 1] } },
      ]);

      expect(await vectors.countForDocument(doc)).toEqual({ dense: 2, sparse: 2 });
      expect((await vectors.searchSparse(scope, { indices: [21], values: [1] }, 10)).map((h) => h.chunkId)).toEqual([
        a,
      ]);
      expect((await vectors.searchSparse(scope, { indices: [23], values: [1] }, 10)).map((h) => h.chunkId)).toEqual([
        b,
      ]);
      expect((await vectors.searchDense(scope, model, unitVector([1, 0, 0]), 10)).map((h) => h.chunkId)).toEqual([
        a,
        b,
      ]);
      expect((await vectors.searchDense(scope, model, unitVector([0, 1, 0]), 10)).map((h) => h.chunkId)).toEqual([
        b,
        a,
      ]);
    });

    it('counts the dense and the sparse vectors of a document separately', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const otherDoc = randomUUID();
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 0, sparse: 0 });
      await vectors.upsertDense(
        scope,
        model,
        [1, 2, 3].map((i) => ({ chunkId: `${doc}-${i}`, documentId: doc, vector: unitVector([i, 1, 0]) })),
      );
      await vectors.upsertSparse(scope, [
        { chunkId: `${doc}-1`, documentId: doc, sparse: { indices: [31], values: [1] } },
      ]);
      await vectors.upsertDense(scope, model, [
        { chunkId: `${otherDoc}-1`, documentId: otherDoc, vector: unitVector([1, 1, 1]) },
      ]);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 3, sparse: 1 });
      expect(await vectors.countForDocument(otherDoc)).toEqual({ dense: 1, sparse: 0 });
      await vectors.deleteDocument(scope, doc);
      expect(await vectors.countForDocument(doc)).toEqual({ dense: 0, sparse: 0 });
      expect(await vectors.countForDocument(otherDoc)).toEqual({ dense: 1, sparse: 0 });
    });
  });
}

import { randomUUID } from 'node:crypto';
import { SluiceError } from '../../contracts/sluiceError';
import type { EmbeddingModelRef, VectorStore } from '../../stores/ports';
import { axis, newScope } from './vectorStoreContract';

/**
 * The second dense vector's half of the vector store contract: each chunk's vector from
 * the model of its language, kept beside its first vector, under the same rules within its kind.
 */
export function describeVectorStoreLanguageContract(name: string, make: () => Promise<VectorStore>): void {
  describe(`${name} (vector store contract: the second dense vector)`, () => {
    const first: EmbeddingModelRef = { model: `first-${randomUUID().slice(0, 8)}`, dimension: 4 };
    const en: EmbeddingModelRef = { model: `lang-en-${randomUUID().slice(0, 8)}`, dimension: 3 };
    const zh: EmbeddingModelRef = { model: `lang-zh-${randomUUID().slice(0, 8)}`, dimension: 5 };
    let vectors: VectorStore;
    beforeAll(async () => {
      vectors = await make();
    });
    const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);

    it('keeps a chunk’s second vector beside its first: neither write moves the other, each is searched alone', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const [a, b] = [`${doc}-a`, `${doc}-b`];
      await vectors.upsertDense(scope, first, [
        { chunkId: a, documentId: doc, vector: axis(4, 0) },
        { chunkId: b, documentId: doc, vector: axis(4, 1) },
      ]);
      await vectors.upsertLanguageDense(scope, en, [
        { chunkId: a, documentId: doc, vector: axis(3, 2) },
        { chunkId: b, documentId: doc, vector: axis(3, 0) },
      ]);
      expect(ids(await vectors.searchDense(scope, first, axis(4, 0), 10))).toEqual([a, b]);
      expect(ids(await vectors.searchLanguageDense(scope, en, axis(3, 0), 10))).toEqual([b, a]);
      // The first vector's search never reads the second's vectors, even under the same model name.
      expect(await vectors.searchDense(scope, en, axis(3, 0), 10)).toEqual([]);
      expect(await vectors.searchLanguageDense(scope, first, axis(4, 0), 10)).toEqual([]);
      expect((await vectors.countForDocument(doc)).dense).toBe(4);
    });

    it('moves a chunk’s second vector to another language’s model, and only within its kind', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const chunk = `${doc}-1`;
      await vectors.upsertDense(scope, first, [{ chunkId: chunk, documentId: doc, vector: axis(4, 0) }]);
      await vectors.upsertLanguageDense(scope, en, [{ chunkId: chunk, documentId: doc, vector: axis(3, 0) }]);
      await vectors.upsertLanguageDense(scope, zh, [{ chunkId: chunk, documentId: doc, vector: axis(5, 0) }]);
      expect(await vectors.searchLanguageDense(scope, en, axis(3, 0), 10)).toEqual([]);
      expect(ids(await vectors.searchLanguageDense(scope, zh, axis(5, 0), 10))).toEqual([chunk]);
      expect(ids(await vectors.searchDense(scope, first, axis(4, 0), 10))).toEqual([chunk]);
      expect((await vectors.countForDocument(doc)).dense).toBe(2);
    });

    it('removes the second vectors with the document and with dropped chunks, in the tenant only', async () => {
      const scope = newScope();
      const [doc, other] = [randomUUID(), randomUUID()];
      await vectors.upsertLanguageDense(scope, en, [
        { chunkId: `${doc}-1`, documentId: doc, vector: axis(3, 0) },
        { chunkId: `${doc}-2`, documentId: doc, vector: axis(3, 1) },
      ]);
      await vectors.upsertLanguageDense(scope, en, [{ chunkId: `${other}-1`, documentId: other, vector: axis(3, 0) }]);
      await vectors.deleteChunks(scope, [`${doc}-2`]);
      expect(ids(await vectors.searchLanguageDense(scope, en, axis(3, 1), 10)).sort()).toEqual(
        [`${doc}-1`, `${other}-1`].sort(),
      );
      await vectors.deleteDocument(newScope(), doc);
      expect((await vectors.countForDocument(doc)).dense).toBe(1);
      await vectors.deleteDocument(scope, doc);
      expect((await vectors.countForDocument(doc)).dense).toBe(0);
      expect((await vectors.countForDocument(other)).dense).toBe(1);
    });

    it('refuses a second vector or a query of another size than its model with EMBEDDING_DIMENSION_UNSUPPORTED', async () => {
      const scope = newScope();
      const write = await vectors
        .upsertLanguageDense(scope, en, [{ chunkId: 'c', documentId: 'd', vector: axis(4, 0) }])
        .catch((e: unknown) => e);
      expect(write).toBeInstanceOf(SluiceError);
      expect(write).toMatchObject({ code: 'EMBEDDING_DIMENSION_UNSUPPORTED', permanent: true });
      const search = await vectors.searchLanguageDense(scope, en, axis(5, 0), 3).catch((e: unknown) => e);
      expect(search).toMatchObject({ code: 'EMBEDDING_DIMENSION_UNSUPPORTED' });
    });
  });
}

import { randomUUID } from 'node:crypto';
import type { EmbeddingModelRef, VectorStore } from '../../stores/ports';
import { axis, newScope } from './vectorStoreContract';

/**
 * The passage windows' half of the vector store contract: several vectors per chunk, scored for the
 * chunks a search names, each chunk once at its best window; a write replacing the chunk's windows;
 * deletes by document and by chunk reaching them.
 */
export function describeVectorStoreWindowContract(name: string, make: () => Promise<VectorStore>): void {
  describe(`${name} (vector store contract: passage windows)`, () => {
    const en: EmbeddingModelRef = { model: `win-en-${randomUUID().slice(0, 8)}`, dimension: 4 };
    const zh: EmbeddingModelRef = { model: `win-zh-${randomUUID().slice(0, 8)}`, dimension: 5 };
    let vectors: VectorStore;
    beforeAll(async () => {
      vectors = await make();
    });
    const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);

    it('scores each named chunk once, by its best window, and reads no other chunk', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const [a, b, c] = [`${doc}-a`, `${doc}-b`, `${doc}-c`];
      await vectors.upsertPassageWindows(scope, en, [
        // a's second window is the query's direction; b's are all a little off it; c matches best but is not asked.
        { chunkId: a, documentId: doc, vectors: [axis(4, 2), axis(4, 0), axis(4, 3)] },
        { chunkId: b, documentId: doc, vectors: [axis(4, 0, 0.5), axis(4, 1)] },
        { chunkId: c, documentId: doc, vectors: [axis(4, 0)] },
      ]);
      const hits = await vectors.scorePassageWindows(scope, en, axis(4, 0), [b, a, `${doc}-none`]);
      expect(ids(hits)).toEqual([a, b]);
      expect(hits[0]?.score).toBeCloseTo(1, 2);
      expect(hits[1]?.score).toBeCloseTo(1 / Math.sqrt(1.25), 2);
      expect(await vectors.scorePassageWindows(scope, en, axis(4, 0), [])).toEqual([]);
      // Windows are not the chunks' second vectors, and another tenant reads none of them.
      expect(await vectors.searchLanguageDense(scope, en, axis(4, 0), 10)).toEqual([]);
      expect(await vectors.scorePassageWindows(newScope(), en, axis(4, 0), [a, b])).toEqual([]);
      expect((await vectors.countForDocument(doc)).dense).toBe(6);
    });

    it('replaces a chunk’s windows when it is written again, with fewer windows or another model', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const chunk = `${doc}-1`;
      await vectors.upsertPassageWindows(scope, en, [
        { chunkId: chunk, documentId: doc, vectors: [axis(4, 0), axis(4, 1), axis(4, 2)] },
      ]);
      await vectors.upsertPassageWindows(scope, en, [{ chunkId: chunk, documentId: doc, vectors: [axis(4, 3)] }]);
      expect((await vectors.countForDocument(doc)).dense).toBe(1);
      expect((await vectors.scorePassageWindows(scope, en, axis(4, 0), [chunk]))[0]?.score ?? 1).toBeLessThan(0.5);
      await vectors.upsertPassageWindows(scope, zh, [{ chunkId: chunk, documentId: doc, vectors: [axis(5, 0)] }]);
      expect(await vectors.scorePassageWindows(scope, en, axis(4, 3), [chunk])).toEqual([]);
      expect(ids(await vectors.scorePassageWindows(scope, zh, axis(5, 0), [chunk]))).toEqual([chunk]);
      // A record without windows clears the chunk's.
      await vectors.upsertPassageWindows(scope, zh, [{ chunkId: chunk, documentId: doc, vectors: [] }]);
      expect((await vectors.countForDocument(doc)).dense).toBe(0);
    });

    it('removes windows with the document and with dropped chunks, in the tenant only', async () => {
      const scope = newScope();
      const [doc, other] = [randomUUID(), randomUUID()];
      const chunks = [`${doc}-1`, `${doc}-2`, `${other}-1`];
      await vectors.upsertPassageWindows(scope, en, [
        { chunkId: `${doc}-1`, documentId: doc, vectors: [axis(4, 0), axis(4, 1)] },
        { chunkId: `${doc}-2`, documentId: doc, vectors: [axis(4, 1), axis(4, 2)] },
        { chunkId: `${other}-1`, documentId: other, vectors: [axis(4, 1)] },
      ]);
      await vectors.deleteChunks(scope, [`${doc}-2`]);
      expect(ids(await vectors.scorePassageWindows(scope, en, axis(4, 1), chunks)).sort()).toEqual(
        [`${doc}-1`, `${other}-1`].sort(),
      );
      await vectors.deleteDocument(newScope(), doc);
      expect((await vectors.countForDocument(doc)).dense).toBe(2);
      await vectors.deleteDocument(scope, doc);
      expect((await vectors.countForDocument(doc)).dense).toBe(0);
      expect((await vectors.countForDocument(other)).dense).toBe(1);
    });

    it('refuses a window or a query of another size than its model with EMBEDDING_DIMENSION_UNSUPPORTED', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const write = await vectors
        .upsertPassageWindows(scope, en, [{ chunkId: `${doc}-1`, documentId: doc, vectors: [axis(4, 0), axis(5, 0)] }])
        .catch((e: unknown) => e);
      expect(write).toMatchObject({ code: 'EMBEDDING_DIMENSION_UNSUPPORTED', permanent: true });
      expect((await vectors.countForDocument(doc)).dense).toBe(0);
      const search = await vectors.scorePassageWindows(scope, en, axis(5, 0), [`${doc}-1`]).catch((e: unknown) => e);
      expect(search).toMatchObject({ code: 'EMBEDDING_DIMENSION_UNSUPPORTED' });
    });
  });
}

import { randomBytes, randomUUID } from 'node:crypto';
import type { KeywordEntry, KeywordIndex, TenantScope } from '../../stores/ports';

export const newScope = (): TenantScope => ({ userId: `u-${randomUUID()}`, datasetId: `ds-${randomUUID()}` });

/** An entry of `doc` whose chunk id is `${doc}-${id}` and whose text is its tokens. */
export const keywordEntry = (doc: string, id: string, tokens: string[], text = tokens.join(' ')): KeywordEntry => ({
  chunkId: `${doc}-${id}`,
  documentId: doc,
  fileName: 'notes.md',
  text,
  tokens,
});

const ids = (hits: Array<{ chunkId: string }>): string[] => hits.map((h) => h.chunkId);

/**
 * The behaviour every KeywordIndex adapter must share (docs/design.md §6). Each case writes under
 * fresh tenants and documents, so one index serves the whole suite and cases cannot see each
 * other's data.
 */
export function describeKeywordIndexContract(name: string, make: () => Promise<KeywordIndex>): void {
  describe(`${name} (keyword index contract)`, () => {
    let keywords: KeywordIndex;
    beforeAll(async () => {
      keywords = await make();
      await keywords.ensureIndex();
    });

    it('ensureIndex can be called again, also concurrently', async () => {
      await keywords.ensureIndex();
      await Promise.all([keywords.ensureIndex(), keywords.ensureIndex()]);
    });

    it('finds entries by pretokenized identifiers and CJK words, and nothing for absent terms', async () => {
      const scope = newScope();
      const doc = randomUUID();
      const result = await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'pg', ['pg_stat_activity', 'view', 'sessions']),
        keywordEntry(doc, 'zh', ['向量', '检索', '召回']),
        keywordEntry(doc, 'other', ['checkpoint', 'wal']),
      ]);
      expect(result.failedChunkIds).toEqual([]);

      expect(ids(await keywords.search(scope, ['pg_stat_activity'], 10))).toEqual([`${doc}-pg`]);
      expect(ids(await keywords.search(scope, ['向量'], 10))).toEqual([`${doc}-zh`]);
      expect(await keywords.search(scope, ['absent'], 10)).toEqual([]);
      expect(await keywords.search(scope, [], 10)).toEqual([]);
      const hits = await keywords.search(scope, ['pg_stat_activity', '召回'], 10);
      expect(ids(hits).sort()).toEqual([`${doc}-pg`, `${doc}-zh`].sort());
      expect(hits.every((h) => typeof h.score === 'number' && h.score > 0)).toBe(true);
    });

    it('ranks an entry matching more query terms first, and honours the limit', async () => {
      const scope = newScope();
      const doc = randomUUID();
      await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'one', ['replication', 'slot', 'lag']),
        keywordEntry(doc, 'both', ['replication', 'failover', 'standby']),
        keywordEntry(doc, 'none', ['vacuum', 'freeze']),
      ]);
      const hits = await keywords.search(scope, ['replication', 'failover'], 10);
      expect(ids(hits)).toEqual([`${doc}-both`, `${doc}-one`]);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      expect(ids(await keywords.search(scope, ['replication', 'failover'], 1))).toEqual([`${doc}-both`]);
    });

    it('searches only within the tenant: same dataset other user, same user other dataset', async () => {
      const scope = newScope();
      const otherUser = { ...scope, userId: `u-${randomUUID()}` };
      const otherDataset = { ...scope, datasetId: `ds-${randomUUID()}` };
      const doc = randomUUID();
      await keywords.bulkIndex(scope, [keywordEntry(doc, 'mine', ['向量', 'pg_stat_activity'])]);
      for (const stranger of [otherUser, otherDataset]) {
        expect(await keywords.search(stranger, ['向量'], 10)).toEqual([]);
        expect(await keywords.search(stranger, ['pg_stat_activity'], 10)).toEqual([]);
      }
      expect(ids(await keywords.search(scope, ['向量'], 10))).toEqual([`${doc}-mine`]);
    });

    it('re-indexing the same chunk ids replaces the entries instead of adding more', async () => {
      const scope = newScope();
      const doc = randomUUID();
      await keywords.bulkIndex(scope, [keywordEntry(doc, 'a', ['alpha']), keywordEntry(doc, 'b', ['bravo'])]);
      expect(await keywords.countForDocument(doc)).toBe(2);

      const again = await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'a', ['charlie']),
        keywordEntry(doc, 'b', ['bravo']),
      ]);
      expect(again.failedChunkIds).toEqual([]);
      expect(await keywords.countForDocument(doc)).toBe(2);
      expect(await keywords.search(scope, ['alpha'], 10)).toEqual([]);
      expect(ids(await keywords.search(scope, ['charlie'], 10))).toEqual([`${doc}-a`]);

      // The same chunk id twice in one call: one entry, the last one written.
      const twice = await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'c', ['delta']),
        keywordEntry(doc, 'c', ['echo']),
      ]);
      expect(twice.failedChunkIds).toEqual([]);
      expect(await keywords.countForDocument(doc)).toBe(3);
      expect(await keywords.search(scope, ['delta'], 10)).toEqual([]);
      expect(ids(await keywords.search(scope, ['echo'], 10))).toEqual([`${doc}-c`]);
    });

    it('reports each entry the index refused by chunk id, and writes the others of the call', async () => {
      const scope = newScope();
      const doc = randomUUID();
      // A document id far past what an index keeps as one term or one index row (OpenSearch:
      // 32,766 bytes; Postgres: 8,191), random so that no compression saves it.
      const bad = { ...keywordEntry(doc, 'bad', ['rejected']), documentId: randomBytes(20_000).toString('hex') };
      const result = await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'good-1', ['accepted']),
        bad,
        keywordEntry(doc, 'good-2', ['accepted']),
      ]);
      expect(result.failedChunkIds).toEqual([`${doc}-bad`]);
      expect(await keywords.countForDocument(doc)).toBe(2);
      expect(ids(await keywords.search(scope, ['accepted'], 10)).sort()).toEqual([`${doc}-good-1`, `${doc}-good-2`]);
      expect(await keywords.search(scope, ['rejected'], 10)).toEqual([]);
    });

    it("deleteDocumentExcept removes the document's other entries, only for that tenant", async () => {
      const scope = newScope();
      const stranger = { ...scope, userId: `u-${randomUUID()}` };
      const doc = randomUUID();
      const sibling = randomUUID();
      await keywords.bulkIndex(scope, [
        keywordEntry(doc, 'kept', ['shared']),
        keywordEntry(doc, 'dropped-1', ['shared']),
        keywordEntry(doc, 'dropped-2', ['shared']),
      ]);
      await keywords.bulkIndex(scope, [keywordEntry(sibling, '1', ['shared'])]);
      await keywords.bulkIndex(stranger, [{ ...keywordEntry(doc, 'x', ['shared']), chunkId: `${doc}-stranger` }]);

      await keywords.deleteDocumentExcept(scope, doc, [`${doc}-kept`, `${doc}-never-indexed`]);
      expect(ids(await keywords.search(scope, ['shared'], 10)).sort()).toEqual([`${doc}-kept`, `${sibling}-1`].sort());
      expect(ids(await keywords.search(stranger, ['shared'], 10))).toEqual([`${doc}-stranger`]);

      // Keeping nothing removes the document's entries, as deleteDocument does.
      await keywords.deleteDocumentExcept(scope, doc, []);
      expect(ids(await keywords.search(scope, ['shared'], 10))).toEqual([`${sibling}-1`]);
      expect(await keywords.countForDocument(doc)).toBe(1);
      await keywords.deleteDocumentExcept(scope, randomUUID(), []);
    });

    it('deleteDocument removes only that document, and only for that tenant', async () => {
      const scope = newScope();
      const stranger = { ...scope, userId: `u-${randomUUID()}` };
      const doc = randomUUID();
      const sibling = randomUUID();
      await keywords.bulkIndex(scope, [keywordEntry(doc, '1', ['向量', 'shared']), keywordEntry(doc, '2', ['检索'])]);
      await keywords.bulkIndex(scope, [keywordEntry(sibling, '1', ['向量', 'shared'])]);
      // Another tenant's entry of a document with the same id (chunk ids are unique per tenant).
      await keywords.bulkIndex(stranger, [
        { ...keywordEntry(doc, 'x', ['向量', 'shared']), chunkId: `${doc}-stranger` },
      ]);
      expect(await keywords.countForDocument(doc)).toBe(3);

      await keywords.deleteDocument(scope, doc);
      expect(ids(await keywords.search(scope, ['shared'], 10))).toEqual([`${sibling}-1`]);
      expect(await keywords.search(scope, ['检索'], 10)).toEqual([]);
      expect(ids(await keywords.search(stranger, ['shared'], 10))).toEqual([`${doc}-stranger`]);
      expect(await keywords.countForDocument(doc)).toBe(1);
      expect(await keywords.countForDocument(sibling)).toBe(1);

      // Deleting again, or a document that was never indexed, is not an error.
      await keywords.deleteDocument(scope, doc);
      await keywords.deleteDocument(scope, randomUUID());
    });

    it('countForDocument counts one document across tenants, and 0 for an unknown one', async () => {
      const doc = randomUUID();
      const a = newScope();
      const b = newScope();
      await keywords.bulkIndex(a, [
        keywordEntry(doc, '1', ['one']),
        keywordEntry(doc, '2', ['two']),
        keywordEntry(doc, '3', ['three']),
      ]);
      await keywords.bulkIndex(b, [{ ...keywordEntry(doc, '1', ['one']), chunkId: `${doc}-b1` }]);
      expect(await keywords.countForDocument(doc)).toBe(4);
      expect(await keywords.countForDocument(randomUUID())).toBe(0);
    });
  });
}

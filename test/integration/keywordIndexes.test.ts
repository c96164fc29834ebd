import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { SluiceError } from '../../contracts/sluiceError';
import { createDb } from '../../db/connection';
import { createOpenSearchKeywordIndex, type OpenSearchKeywordIndex } from '../../stores/openSearchKeywordIndex';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { describeKeywordIndexContract, keywordEntry, newScope } from '../../testkit/harness/keywordIndexContract';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// One contract suite (docs/design.md §6), run against both keyword index adapters: the embedded
// default on the stack's Postgres and the production one on the stack's OpenSearch node.

const db = createDb(TEST_DATABASE_URL, 4);
afterAll(() => db.destroy());

describeKeywordIndexContract('Postgres keyword index', () => Promise.resolve(createPostgresKeywordIndex(db)));

// Part of the stack (bash scripts/stack.sh start), so never skipped: if it is down, this fails.
const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const admin = new Client({ node: OPENSEARCH_URL });
// Every run writes to its own indexes and deletes them afterwards.
const indexes: string[] = [];
const opened: OpenSearchKeywordIndex[] = [];
const openSearchIndex = (index = `sluice-test-keywords-${randomUUID()}`): OpenSearchKeywordIndex => {
  indexes.push(index);
  const store = createOpenSearchKeywordIndex({ node: OPENSEARCH_URL, index });
  opened.push(store);
  return store;
};
afterAll(async () => {
  if (indexes.length > 0) await admin.indices.delete({ index: indexes.join(','), ignore_unavailable: true });
  await Promise.all(opened.map((store) => store.close()));
  await admin.close();
});

describeKeywordIndexContract('OpenSearch keyword index', () => Promise.resolve(openSearchIndex()));

describe('OpenSearch keyword index, OpenSearch only', () => {
  it('creates the index once under concurrent ensureIndex calls, with the pretokenized analyzer', async () => {
    const store = openSearchIndex();
    const index = indexes[indexes.length - 1]!;
    await Promise.all([store.ensureIndex(), store.ensureIndex(), store.ensureIndex(), store.ensureIndex()]);
    const { body } = await admin.indices.getMapping({ index });
    const properties = body[index]?.mappings?.properties ?? {};
    expect(Object.keys(properties).sort()).toEqual([
      'chunk_id',
      'dataset_id',
      'document_id',
      'fields',
      'fields_version',
      'file_name',
      'tags',
      'text',
      'tokens',
      'user_id',
    ]);
    expect(properties.tokens).toMatchObject({ type: 'text', analyzer: 'sluice_pretokenized' });
    expect(properties.tags).toMatchObject({ type: 'keyword' });
  });

  it('treats each pretokenized term as one lowercased lexeme (no second analysis on top)', async () => {
    const store = openSearchIndex();
    await store.ensureIndex();
    const scope = newScope();
    const doc = randomUUID();
    await store.bulkIndex(scope, [keywordEntry(doc, '1', ['Node-JS', 'v8'], 'unrelated prose')]);
    expect((await store.search(scope, ['node-js'], 10)).map((h) => h.chunkId)).toEqual([`${doc}-1`]);
    // The standard analyzer would have split "node-js"; the whitespace one keeps it whole.
    expect(await store.search(scope, ['node'], 10)).toEqual([]);
  });

  it('reports the one bulk item OpenSearch rejected, and writes the others', async () => {
    const store = openSearchIndex();
    await store.ensureIndex();
    const scope = newScope();
    const doc = randomUUID();
    // A keyword value longer than Lucene's 32,766-byte term limit is refused by the shard for
    // that document alone ("immense term"), while the request as a whole is valid.
    const bad = { ...keywordEntry(doc, 'bad', ['rejected']), documentId: 'x'.repeat(40_000) };
    const result = await store.bulkIndex(scope, [
      keywordEntry(doc, 'good-1', ['accepted']),
      bad,
      keywordEntry(doc, 'good-2', ['accepted']),
    ]);
    expect(result.failedChunkIds).toEqual([`${doc}-bad`]);
    expect(await store.countForDocument(doc)).toBe(2);
    expect((await store.search(scope, ['accepted'], 10)).map((h) => h.chunkId).sort()).toEqual([
      `${doc}-good-1`,
      `${doc}-good-2`,
    ]);
    expect(await store.search(scope, ['rejected'], 10)).toEqual([]);
  });

  it('classifies an unreachable server as transient failures with the stage codes', async () => {
    // Port 9 (discard) has no listener here: every request fails at the transport.
    const store = createOpenSearchKeywordIndex({ node: 'http://127.0.0.1:9', index: 'unreachable' });
    opened.push(store);
    const scope = newScope();
    const expectCode = async (promise: Promise<unknown>, code: string) => {
      const err: unknown = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SluiceError);
      expect(err).toMatchObject({ code, permanent: false });
    };
    await expectCode(store.ensureIndex(), 'ENSURE_INDEX_FAILED');
    await expectCode(store.deleteDocument(scope, 'd'), 'KEYWORD_DELETE_FAILED');
    await expectCode(store.bulkIndex(scope, [keywordEntry('d', '1', ['x'])]), 'KEYWORD_INDEXING_FAILED');
  });

  it('answers searches, counts and deletes on an index that does not exist yet', async () => {
    const store = openSearchIndex();
    const scope = newScope();
    expect(await store.search(scope, ['anything'], 10)).toEqual([]);
    expect(await store.countForDocument(randomUUID())).toBe(0);
    await store.deleteDocument(scope, randomUUID());
  });
});

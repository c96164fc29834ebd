import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { QdrantClient } from '@qdrant/js-client-rest';
import { createDb } from '../../db/connection';
import { createOpenSearchKeywordIndex, type OpenSearchKeywordIndex } from '../../stores/openSearchKeywordIndex';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { DENSE_INFIX } from '../../stores/qdrantCollections';
import { createQdrantVectorStore } from '../../stores/qdrantVectorStore';
import { describeRebuildSwitchContract } from '../../testkit/harness/rebuildSwitchContract';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The rebuild's atomic switch (docs/rebuild.md) on each store it spans: Postgres chunks with the
// Postgres vector store and either keyword index; Qdrant when QDRANT_URL is set.

const db = createDb(TEST_DATABASE_URL, 4);
afterAll(() => db.destroy());

describeRebuildSwitchContract('Postgres vectors + Postgres full text', () =>
  Promise.resolve({ db, vectors: createPostgresVectorStore(db), keywords: createPostgresKeywordIndex(db) }),
);

// Part of the stack (bash scripts/stack.sh start), so never skipped: if it is down, this fails.
const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const index = `sluice-test-rebuild-${randomUUID()}`;
let openSearch: OpenSearchKeywordIndex | undefined;
afterAll(async () => {
  const admin = new Client({ node: OPENSEARCH_URL });
  await admin.indices.delete({ index, ignore_unavailable: true });
  await admin.close();
  await openSearch?.close();
});
describeRebuildSwitchContract('Postgres vectors + OpenSearch', () => {
  openSearch = createOpenSearchKeywordIndex({ node: OPENSEARCH_URL, index });
  return Promise.resolve({ db, vectors: createPostgresVectorStore(db), keywords: openSearch });
});

const QDRANT_URL = process.env.QDRANT_URL;
if (QDRANT_URL) {
  const auth = process.env.QDRANT_API_KEY ? { apiKey: process.env.QDRANT_API_KEY } : {};
  const base = `sluice_test_${randomUUID().replaceAll('-', '')}`;
  afterAll(async () => {
    const admin = new QdrantClient({ url: QDRANT_URL, ...auth, checkCompatibility: false });
    for (const { name } of (await admin.getCollections()).collections)
      if (name === base || name.startsWith(`${base}${DENSE_INFIX}`)) await admin.deleteCollection(name);
  });
  describeRebuildSwitchContract('Qdrant + Postgres full text', async () => {
    const vectors = createQdrantVectorStore({ url: QDRANT_URL, ...auth, collection: base });
    await vectors.ensureCollection();
    return { db, vectors, keywords: createPostgresKeywordIndex(db) };
  });
} else {
  it.skip('Qdrant rebuild switch SKIPPED: QDRANT_URL is not set', () => undefined);
}

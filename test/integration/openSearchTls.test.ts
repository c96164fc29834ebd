import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { createAdapters } from '../../composition/adapters';
import { loadConfig } from '../../config/config';
import { createOpenSearchKeywordIndex, type OpenSearchKeywordIndex } from '../../stores/openSearchKeywordIndex';
import { keywordEntry, newScope } from '../../testkit/harness/keywordIndexContract';
import { createTestCa, type TestCa } from '../../testkit/fixtures/testCa';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';
import { startTlsProxy, type TlsProxy } from '../../testkit/harness/tlsProxy';

// The stack's OpenSearch behind a TLS proxy whose certificate a CA made here with openssl signed:
// the adapter must trust that CA when given it, and refuse the server without it.
const OPENSEARCH_URL = new URL(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200');
const admin = new Client({ node: OPENSEARCH_URL.toString() });
const index = `sluice-test-tls-${randomUUID()}`;
let ca: TestCa;
let otherCa: TestCa;
let proxy: TlsProxy;
const opened: OpenSearchKeywordIndex[] = [];
const open = (caPem: string | undefined) => {
  const store = createOpenSearchKeywordIndex({ node: proxy.url, index, ca: caPem });
  opened.push(store);
  return store;
};

beforeAll(async () => {
  ca = createTestCa('sluice-opensearch');
  otherCa = createTestCa('sluice-other');
  proxy = await startTlsProxy({ host: OPENSEARCH_URL.hostname, port: Number(OPENSEARCH_URL.port) }, ca.cert, ca.key);
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await admin.indices.delete({ index, ignore_unavailable: true });
  await admin.close();
  await proxy.close();
  ca.remove();
  otherCa.remove();
});

describe('OpenSearch behind TLS with a private CA', () => {
  it('connects, writes and reads with the CA bundle', async () => {
    const store = open(ca.ca);
    await store.ensureIndex();
    const scope = newScope();
    const documentId = randomUUID();
    const { failedChunkIds } = await store.bulkIndex(scope, [
      keywordEntry(documentId, 'c1', ['tls', 'protected', 'text']),
    ]);
    expect(failedChunkIds).toEqual([]);
    expect(await store.countForDocument(documentId)).toBe(1);
  });

  it('refuses the server without the CA, and with another CA', async () => {
    await expect(open(undefined).ensureIndex()).rejects.toMatchObject({
      code: 'ENSURE_INDEX_FAILED',
      message: expect.stringMatching(/self[- ]signed|unable to (get local issuer|verify)/i),
    });
    await expect(open(otherCa.ca).ensureIndex()).rejects.toMatchObject({
      code: 'ENSURE_INDEX_FAILED',
      message: expect.stringMatching(/self[- ]signed|unable to (get local issuer|verify)/i),
    });
  });

  it('reads OPENSEARCH_CA_FILE through the composition root, naming the setting when it is wrong', async () => {
    const env = {
      SLUICE_EMBEDDER: 'local',
      SLUICE_KEYWORD_INDEX: 'opensearch',
      DATABASE_URL: TEST_DATABASE_URL,
      OPENSEARCH_URL: proxy.url,
      OPENSEARCH_INDEX: index,
      OPENSEARCH_CA_FILE: ca.caFile,
    };
    const adapters = createAdapters(loadConfig(env));
    try {
      await adapters.keywords.ensureIndex();
      expect(await adapters.keywords.countForDocument(randomUUID())).toBe(0);
    } finally {
      await adapters.close();
    }
    const missing = path.join(ca.dir, 'absent.pem');
    expect(() => createAdapters(loadConfig({ ...env, OPENSEARCH_CA_FILE: missing }))).toThrow(
      `OPENSEARCH_CA_FILE: cannot read ${missing} (ENOENT)`,
    );
    const der = path.join(ca.dir, 'ca.der');
    fs.writeFileSync(der, Buffer.from([0x30, 0x82]));
    expect(() => createAdapters(loadConfig({ ...env, OPENSEARCH_CA_FILE: der }))).toThrow(/holds no PEM block/);
  });
});

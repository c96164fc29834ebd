import { randomUUID } from 'node:crypto';
import { retryDocument } from '../../client/documentAdmin';
import { countChunks } from '../../db/repositories/chunks';
import { createAdapters } from '../../composition/adapters';
import { flakyEmbedders, type FlakyProviderState } from '../../testkit/fakes/flakyEmbedder';
import { ingestBuffer, sectionedMarkdown, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const CHUNKS = 50;
const BATCH = 5;
const scope = { userId: `user-${randomUUID()}`, datasetId: 'partial' };

const provider: FlakyProviderState = { failAfter: null, embedded: [] };
const embedded = provider.embedded;

let tw: TestWorker;
beforeAll(async () => {
  tw = await startTestWorker({
    config: testConfig({ SLUICE_EMBED_BATCH_SIZE: String(BATCH) }),
    adapters: (config) => {
      const base = createAdapters(config);
      return { ...base, embedders: flakyEmbedders(base.embedders, provider) };
    },
  });
});
afterAll(() => tw.shutdown());

it('the embedder fails after 80 % of the chunks; the retry embeds exactly the remaining 20 %', async () => {
  provider.failAfter = CHUNKS * 0.8;
  const { documentId } = await ingestBuffer(tw, sectionedMarkdown(CHUNKS, 'partial'), 'doc.md', scope);
  const failed = await waitTerminal(tw.client, documentId);
  expect(failed).toMatchObject({ status: 'FAILED', failureCode: 'VECTORIZING_FAILED' });
  expect(embedded).toHaveLength(CHUNKS * 0.8);
  expect((await countChunks(tw.adapters.db, documentId)).dense).toBe(CHUNKS * 0.8);

  const firstRun = embedded.length;
  const { taskId } = await retryDocument({ client: tw.client, db: tw.adapters.db, config: tw.config }, documentId);
  expect((await waitForTask(tw.client, documentId, taskId)).status).toBe('SUCCESS');

  const onRetry = embedded.slice(firstRun);
  expect(onRetry).toHaveLength(CHUNKS * 0.2);
  expect(new Set(embedded).size).toBe(embedded.length);
  expect(await tw.adapters.vectors.countForDocument(documentId)).toEqual({ dense: CHUNKS, sparse: CHUNKS });
});

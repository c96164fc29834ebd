import { randomUUID } from 'node:crypto';
import { reembedDataset } from '../../client/reembed';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks, documentsWithStaleVectors } from '../../db/repositories/chunks';
import { getPipeline } from '../../db/repositories/pipelines';
import { hybridSearch } from '../../search/hybridSearch';
import { ingestBuffer, sectionedMarkdown, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'model-upgrade' };
let before: TestWorker;
let after: TestWorker;

beforeAll(async () => {
  before = await startTestWorker({ config: testConfig({ SLUICE_EMBED_DIMENSION: '256' }) });
  // The "upgraded" deployment: same data, a model with another dimension.
  after = await startTestWorker({
    config: testConfig({ SLUICE_EMBED_DIMENSION: '128', SLUICE_DATA_DIR: before.config.dataDir }),
  });
});
afterAll(async () => {
  await before.shutdown();
  await after.shutdown();
});

it('reembed redoes only the vectors of documents made by another model, durably, leaving no mix', async () => {
  const docs = [];
  for (const tag of ['alpha', 'beta']) {
    const started = await ingestBuffer(before, sectionedMarkdown(10, `upgrade-${tag}`), `${tag}.md`, scope);
    expect((await waitTerminal(before.client, started.documentId)).status).toBe('SUCCESS');
    // SUCCESS is visible a moment before the run closes (it still notifies); wait for the close.
    await before.client.workflow.getHandle(ingestWorkflowId(started.documentId)).result();
    docs.push(started);
  }
  const entriesBefore = await before.adapters.keywords.countForDocument(docs[0]?.documentId ?? '');

  const report = await reembedDataset(
    { client: after.client, db: after.adapters.db, config: after.config, embedders: after.adapters.embedders },
    scope,
  );
  expect(report).toMatchObject({ dimension: 128, skipped: [] });
  expect(report.started.map((s) => s.documentId).sort()).toEqual(docs.map((d) => d.documentId).sort());
  for (const s of report.started) {
    after.track(s.documentId);
    expect((await waitForTask(after.client, s.documentId, s.taskId)).status).toBe('SUCCESS');
  }

  for (const [i, doc] of docs.entries()) {
    const vectors = await after.adapters.db
      .selectFrom('dense_vectors')
      .select(['dimension'])
      .where('document_id', '=', doc.documentId)
      .execute();
    expect(vectors).toHaveLength(10);
    expect(new Set(vectors.map((v) => v.dimension))).toEqual(new Set([128]));
    expect(await countChunks(after.adapters.db, doc.documentId)).toMatchObject({
      active: 10,
      dense: 10,
      sparse: 10,
      keyword: 10,
    });
    const fresh = await getPipeline(
      after.adapters.db,
      report.started.find((s) => s.documentId === doc.documentId)?.taskId ?? '',
    );
    const old = await getPipeline(after.adapters.db, doc.taskId);
    // Parse, chunks and keyword entries were inherited, not redone.
    expect(fresh).toMatchObject({
      pipeline_status: 'SUCCESS',
      cleaning_ms: old.cleaning_ms,
      chunking_ms: old.chunking_ms,
      keyword_indexing_ms: old.keyword_indexing_ms,
    });
    expect(old.superseded_by_task_id).toBe(fresh.task_id);
    if (i === 0) expect(await after.adapters.keywords.countForDocument(doc.documentId)).toBe(entriesBefore);
  }
  expect(await documentsWithStaleVectors(after.adapters.db, scope, { model: report.model, dimension: 128 })).toEqual(
    [],
  );
  const hits = await hybridSearch(after.adapters, scope, 'upgrade-beta paragraph number 3 mentions token3', 3);
  expect(hits[0]?.text).toContain('upgrade-beta paragraph number 3');

  const again = await reembedDataset(
    { client: after.client, db: after.adapters.db, config: after.config, embedders: after.adapters.embedders },
    scope,
  );
  expect(again.started).toEqual([]);
});

import { enrichmentSettingsSchema } from '../../contracts/datasetSettings';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { startIngestion } from '../../client/ingestClient';
import { saveModelSettings } from '../../client/modelConfigs';
import { createAdapters } from '../../composition/adapters';
import { listActiveChunks } from '../../db/repositories/chunks';
import { ingestWorkflowId } from '../../contracts/ingest';
import { enrichmentTaskQueue } from '../../contracts/taskQueues';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { scheduledActivityQueues } from '../../testkit/harness/historyEvents';
import { startFakeChatServer, type FakeChatServer } from '../../testkit/fakes/fakeChatServer';
import { fakeVisionAnswer } from '../../testkit/fakes/fakeModelAnswers';
import { startFakeParserService, type FakeParserService } from '../../testkit/fakes/fakeParserService';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startPresignServer, type PresignServer } from '../../testkit/fakes/localPresign';
import { pandocOffice } from '../../testkit/fixtures/pandocOffice';
import { blankPng } from '../../testkit/fixtures/scanFixtures';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// CLEANING's model enrichments on the real dev server. Image descriptions: the parsing service's test server returns
// markdown with an image, CLEANING sends the image to the VISION model (the test chat server) and
// the description, marked, is what gets chunked. The local object store is given presigned URLs
// by testkit/fakes/localPresign.ts, so this runs without S3. Table repair: a markdown upload's
// ragged table is replaced by the chat model's well-formed one before it is chunked.

let chat: FakeChatServer;
let service: FakeParserService;
let presign: PresignServer;
let tw: TestWorker;
const pdf = fixturePdf([[{ text: 'A page with a figure.' }]]);

beforeAll(async () => {
  chat = await startFakeChatServer();
  service = await startFakeParserService({});
  presign = await startPresignServer();
  tw = await startTestWorker({
    config: testConfig({
      SLUICE_SECRET_KEY: randomBytes(32).toString('base64'),
      SLUICE_PARSER_SERVICE_URL: service.baseUrl,
      SLUICE_PARSER_SERVICE_POLL: '200ms',
    }),
    adapters: (config) => {
      const adapters = createAdapters(config);
      presign.attach(adapters.objects);
      return adapters;
    },
  });
});
afterAll(async () => {
  await tw.shutdown();
  await presign.close();
  await service.close();
  await chat.close();
});

async function ingest(withVision: boolean) {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'figures' };
  await saveDatasetSettings(tw.adapters.db, scope, {
    parsing: { backends: { pdf: 'service' } },
    enrichment: enrichmentSettingsSchema.parse({ imageDescriptions: true }),
  });
  if (withVision)
    await saveModelSettings({ db: tw.adapters.db, config: tw.config }, scope.userId, 'vision', {
      baseUrl: chat.baseUrl,
      model: 'tiny-vision',
    });
  const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(48)]);
  service.queueScripts({ kind: 'success', images: { 'figure-1.png': image } });
  const doc = await registerDocument(tw.adapters, { ...scope, fileName: 'f.pdf', body: Readable.from([pdf]) });
  await tw.adapters.db.updateTable('documents').set({ file_type: 'pdf' }).where('id', '=', doc.id).execute();
  await startIngestion(tw.client, tw.config, { documentId: doc.id, ...scope });
  tw.track(doc.id);
  return { documentId: doc.id, digest: createHash('sha256').update(image).digest('hex') };
}

/** Where the run's CLEANING activities were sent: the parse to the ingest queue, the model calls to the enrichment one. */
async function cleaningQueues(documentId: string): Promise<Array<[string, string]>> {
  const history = await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory();
  return scheduledActivityQueues(history.events ?? []).filter(([type]) =>
    ['cleaning', 'parseForEnrichment', 'enrichMarkdown'].includes(type),
  );
}

const chunkText = async (documentId: string) =>
  (await listActiveChunks(tw.adapters.db, { documentId, generation: 0 })).map((c) => c.text).join('\n');

test("the VISION model's description is chunked where the image stood, once per image", async () => {
  const { documentId, digest } = await ingest(true);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const text = await chunkText(documentId);
  expect(text).toContain(
    `Image description (written by a vision model; image "figure one"):** ${fakeVisionAnswer(digest)}`,
  );
  expect(text).not.toContain('](images/figure-1.png)');
  expect(chat.requests.filter((r) => r.imageDigests.includes(digest))).toHaveLength(1);
  const rows = await tw.adapters.db
    .selectFrom('cleaning_enrichments')
    .selectAll()
    .where('document_id', '=', documentId)
    .execute();
  expect(rows.map((r) => [r.kind, r.input_sha256, r.model])).toEqual([['image', digest, 'tiny-vision']]);
  expect(await cleaningQueues(documentId)).toEqual([
    ['parseForEnrichment', tw.config.temporal.taskQueue],
    ['enrichMarkdown', enrichmentTaskQueue(tw.config.temporal.taskQueue)],
  ]);
});

test('without a VISION model the document succeeds with its image reference and no model call', async () => {
  const before = chat.requests.length;
  const { documentId } = await ingest(false);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  expect(await chunkText(documentId)).toContain('figure one');
  expect(chat.requests.length).toBe(before);
});

test("a ragged table is chunked as the CHAT model's well-formed repair", async () => {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'tables' };
  await saveDatasetSettings(tw.adapters.db, scope, {
    enrichment: enrichmentSettingsSchema.parse({ tableRepair: true }),
  });
  await saveModelSettings({ db: tw.adapters.db, config: tw.config }, scope.userId, 'chat', {
    baseUrl: chat.baseUrl,
    model: 'tiny-chat',
  });
  const before = chat.requests.length;
  const table = '| part | count | unit |\n| --- | --- | --- |\n| washer | 12 |\n| gasket | 3 | pcs | spare |';
  const { documentId } = await ingestBuffer(tw, `# Parts\n\nThe list.\n\n${table}\n`, 'parts.md', scope);
  tw.track(documentId);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const text = await chunkText(documentId);
  expect(text).toContain('| washer | 12 |  |');
  expect(text).toContain('| gasket | 3 | pcs |');
  expect(text).not.toContain('spare');
  expect(chat.requests.slice(before).map((r) => r.kind)).toEqual(['table']);
  // A small markdown file parses as a local activity: only the model call is a task, on the enrichment queue.
  expect(await cleaningQueues(documentId)).toEqual([
    ['enrichMarkdown', enrichmentTaskQueue(tw.config.temporal.taskQueue)],
  ]);
});

test.each(['docx', 'pptx'] as const)(
  "a pandoc-made %s's pictures, kept by the built-in parser, are chunked as the VISION model described them",
  async (format) => {
    const scope = { userId: `user-${randomUUID()}`, datasetId: `pictures-${format}` };
    await saveDatasetSettings(tw.adapters.db, scope, {
      enrichment: enrichmentSettingsSchema.parse({ imageDescriptions: true }),
    });
    await saveModelSettings({ db: tw.adapters.db, config: tw.config }, scope.userId, 'vision', {
      baseUrl: chat.baseUrl,
      model: 'tiny-vision',
    });
    const chart = blankPng(40, 30);
    const map = blankPng(30, 40);
    const file = pandocOffice(
      '# Sales\n\nThe quarter went well.\n\n![Quarterly sales chart](chart.png)\n\n# Offices\n\nWhere we are.\n\n![Office map](map.png)\n',
      format,
      { 'chart.png': chart, 'map.png': map },
    );
    const { documentId } = await ingestBuffer(tw, file, `report.${format}`, scope);
    expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
    const text = await chunkText(documentId);
    for (const picture of [chart, map])
      expect(text).toContain(fakeVisionAnswer(createHash('sha256').update(picture).digest('hex')));
    expect(text).not.toContain('](images/');
    expect(text.indexOf(fakeVisionAnswer(createHash('sha256').update(chart).digest('hex')))).toBeLessThan(
      text.indexOf('Where we are.'),
    );
  },
);

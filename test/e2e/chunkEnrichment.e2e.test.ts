import { randomBytes, randomUUID } from 'node:crypto';
import { saveModelSettings } from '../../client/modelConfigs';
import { listActiveChunks } from '../../db/repositories/chunks';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { getPipeline } from '../../db/repositories/pipelines';
import { fakeKeyword, startFakeChatServer, type FakeChatServer } from '../../testkit/fakes/fakeChatServer';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// Chunk keywords and questions from a chat model on the real dev server, against a
// local OpenAI-compatible chat server: indexed with the chunk, checkpointed per batch, and
// LLM_CONFIG_MISSING for a user without a CHAT model.

const API_KEY = 'sk-chat-test-0123456789';
let chat: FakeChatServer;
let tw: TestWorker;

beforeAll(async () => {
  chat = await startFakeChatServer();
  tw = await startTestWorker({
    config: testConfig({
      SLUICE_SECRET_KEY: randomBytes(32).toString('base64'),
      SLUICE_ENRICH_BATCH_SIZE: '2',
      SLUICE_ENRICH_MAX_RESPONSE_BYTES: '65536',
    }),
  });
});
afterAll(async () => {
  await tw.shutdown();
  await chat.close();
});

/** Sections whose last words differ, so the fake's keyword for each chunk is its own. */
function markdown(tag: string, sections: number): string {
  let text = `# Notes ${tag}\n\n`;
  for (let i = 0; i < sections; i++) text += `## Part ${i}\n\nA short paragraph about ${tag}word${i}\n\n`;
  return text;
}

async function enrichedUser(withChat: boolean) {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'notes' };
  await saveDatasetSettings(tw.adapters.db, scope, {
    enrichment: { chunkKeywords: true, chunkQuestions: true, imageDescriptions: false, tableRepair: false },
  });
  if (withChat)
    await saveModelSettings({ db: tw.adapters.db, config: tw.config }, scope.userId, 'chat', {
      baseUrl: chat.baseUrl,
      model: 'tiny-chat',
      apiKey: API_KEY,
    });
  return scope;
}

const askedFor = (text: string) => chat.requests.filter((r) => r.texts.includes(text)).length;

test('keywords and questions are indexed with each chunk; the key is sent and stored sealed', async () => {
  const scope = await enrichedUser(true);
  const tag = `alpha${randomUUID().slice(0, 6)}`;
  const { documentId } = await ingestBuffer(tw, markdown(tag, 3), 'notes.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const chunks = await listActiveChunks(tw.adapters.db, { documentId, generation: 0 });
  const rows = await tw.adapters.db
    .selectFrom('chunk_enrichments')
    .selectAll()
    .where('document_id', '=', documentId)
    .execute();
  expect(rows).toHaveLength(chunks.length);
  for (const row of rows) {
    expect(row.keywords.every((k) => k.length <= 60)).toBe(true);
    expect(row.questions.length).toBeGreaterThan(0);
  }
  // The keyword the model wrote finds the chunk, though the chunk's own text does not contain it.
  const keyword = fakeKeyword(`${tag}word1`).toLowerCase();
  const chunk = chunks.find((c) => c.text.includes(`${tag}word1`));
  expect(chunk?.text).not.toContain(keyword);
  const hits = await tw.adapters.keywords.search(scope, [keyword], 5);
  expect(hits.map((h) => h.chunkId)).toContain(chunk?.chunk_id);
  expect(chat.requests[chat.requests.length - 1]?.authorization).toBe(`Bearer ${API_KEY}`);
  const stored = await tw.adapters.db
    .selectFrom('model_configs')
    .selectAll()
    .where('user_id', '=', scope.userId)
    .executeTakeFirst();
  expect(stored?.api_key_encrypted).not.toContain(API_KEY);
});

test('a malformed and an oversized answer fail their attempt; the retry asks only for chunks not done', async () => {
  const scope = await enrichedUser(true);
  const tag = `beta${randomUUID().slice(0, 6)}`;
  chat.queueFaults('none', 'malformed', 'oversized');
  const { documentId } = await ingestBuffer(tw, markdown(tag, 5), 'notes.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const chunks = await listActiveChunks(tw.adapters.db, { documentId, generation: 0 });
  const counts = chunks.map((c) => askedFor(c.text));
  // The first batch was stored before the bad answers: never asked again. The batch that got the
  // bad answers was asked three times (two failed attempts, then the one that succeeded).
  expect(counts.filter((n) => n === 1).length).toBe(chunks.length - 2);
  expect(counts.filter((n) => n === 3).length).toBe(2);
  const rows = await tw.adapters.db
    .selectFrom('chunk_enrichments')
    .select('chunk_id')
    .where('document_id', '=', documentId)
    .execute();
  expect(rows).toHaveLength(chunks.length);
  // The instruction in the malformed answer changed nothing: the index still has every chunk.
  expect(await tw.adapters.keywords.countForDocument(documentId)).toBe(chunks.length);
});

test('a dataset asking for chat enrichment from a user with no CHAT model fails LLM_CONFIG_MISSING', async () => {
  const scope = await enrichedUser(false);
  const before = chat.requests.length;
  const { documentId, taskId } = await ingestBuffer(tw, markdown('gamma', 2), 'notes.md', scope);
  const progress = await waitTerminal(tw.client, documentId);
  expect(progress.status).toBe('FAILED');
  expect(progress.failureCode).toBe('LLM_CONFIG_MISSING');
  const pipeline = await getPipeline(tw.adapters.db, taskId);
  expect(pipeline.failed_stage).toBe('PRETOKENIZE');
  expect(pipeline.failure_reason).toMatch(/^LLM_CONFIG_MISSING: .*no CHAT model/);
  expect(chat.requests.length).toBe(before);
});

import { enrichmentSettingsSchema } from '../../contracts/datasetSettings';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createParseForEnrichmentActivity } from '../../activities/stages/cleaning';
import { createEnrichMarkdownActivity, type EnrichMarkdownInput } from '../../activities/stages/enrichMarkdown';
import { saveModelSettings } from '../../client/modelConfigs';
import { parseEncryptionKey } from '../../crypto/secretBox';
import type { StageInput } from '../../contracts/ingest';
import { createCpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import type { ModelPurpose } from '../../db/database';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { objectKeys } from '../../stores/objectKeys';
import { startFakeChatServer, type FakeChatServer } from '../../testkit/fakes/fakeChatServer';
import { fakeVisionAnswer } from '../../testkit/fakes/fakeModelAnswers';
import { partialDeps, runAttempt } from '../../testkit/harness/stageHarness';
import { testConfig, TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// CLEANING's model enrichments against the real Postgres, a real local object store and
// the test chat server over HTTP: image descriptions from a VISION model written where the image
// stood, checkpointed per image; table repair by a CHAT model, kept only when well formed. As in a
// run, the parse happens once (parseForEnrichment) and only enrichMarkdown is attempted again.

const SECRET = randomBytes(32).toString('base64');
const config = testConfig({ SLUICE_SECRET_KEY: SECRET });
const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-cleaning-enrich-${randomUUID()}`);
const objects = createLocalObjectStore(path.join(root, 'objects'));
const cpu = createCpuPool({ threads: 1, limits: DEFAULT_PARSE_LIMITS });
let chat: FakeChatServer;

beforeAll(async () => {
  chat = await startFakeChatServer();
});
afterAll(async () => {
  await chat.close();
  await cpu.close();
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const deps = partialDeps({
  db,
  objects,
  cpu,
  settings: {
    tmpDir: path.join(root, 'tmp'),
    maxFileBytes: 1024 * 1024,
    markdown: { maxBytes: 1024 * 1024, perSourceByte: 32 },
    quota: { maxBytes: 1024 * 1024 * 1024, maxDocuments: 1000 },
  } as never,
  enrichment: {
    batchSize: 8,
    maxResponseBytes: 64 * 1024,
    maxImageBytes: 4096,
    outbound: config.outbound,
    secretKeys: [parseEncryptionKey(SECRET)],
  },
});
const parseForEnrichment = createParseForEnrichmentActivity(deps);
const cleaning = createEnrichMarkdownActivity(deps);

const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const RAGGED = '| name | size | unit |\n| --- | --- | --- |\n| bolt | 4 |\n| nut | 2 | mm | extra |';

/** A markdown document of a new user whose dataset turns on `options`, with a task and its images stored. */
async function seed(
  source: string,
  options: { imageDescriptions?: boolean; tableRepair?: boolean },
  models: ModelPurpose[],
  images: Record<string, Buffer> = {},
): Promise<EnrichMarkdownInput> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: 'ds' };
  const key = `sources/${doc.documentId}`;
  await objects.putText(key, source);
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'notes.md',
    size_bytes: Buffer.byteLength(source),
    content_sha256: randomUUID(),
    source_object_key: key,
  });
  await saveDatasetSettings(db, doc, {
    enrichment: enrichmentSettingsSchema.parse(options),
  });
  for (const purpose of models)
    await saveModelSettings({ db, config }, doc.userId, purpose, {
      baseUrl: chat.baseUrl,
      model: `tiny-${purpose}`,
      apiKey: 'sk-vision-test-000111',
    });
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(db, { taskId: input.taskId, documentId: doc.documentId, ownerRunChain: randomUUID() });
  for (const [name, bytes] of Object.entries(images))
    await objects.putStream(
      objectKeys.parsedImage(doc.userId, doc.documentId, input.taskId, name),
      Readable.from([bytes]),
    );
  const parsed = await runAttempt(parseForEnrichment, input).outcome;
  if (!parsed.result) throw new Error(`the parse failed: ${String(parsed.error)}`);
  return input;
}

/** The markdown CLEANING stored for the task. */
const storedMarkdown = (input: StageInput) =>
  objects.getText(objectKeys.markdown(input.userId, input.documentId, input.taskId));

const visionAsked = (bytes: Buffer) => chat.requests.filter((r) => r.imageDigests.includes(digest(bytes))).length;

it('writes each image description where the image stood, marked, and repairs a ragged table', async () => {
  const one = png();
  const two = png();
  const input = await seed(
    `# Report\n\n![chart of sales](images/fig-1.png)\n\nBetween.\n\n![](images/fig-2.png)\n\n${RAGGED}\n\nEnd.\n`,
    { imageDescriptions: true, tableRepair: true },
    ['vision', 'chat'],
    { 'fig-1.png': one, 'fig-2.png': two },
  );
  const { error } = await runAttempt(cleaning, input).outcome;
  expect(error).toBeUndefined();
  const markdown = await storedMarkdown(input);
  expect(markdown).not.toContain('](images/');
  expect(markdown).toContain(
    `> **Image description (written by a vision model; image "chart of sales"):** ${fakeVisionAnswer(digest(one))}`,
  );
  expect(markdown).toContain(`> **Image description (written by a vision model):** ${fakeVisionAnswer(digest(two))}`);
  expect(markdown.indexOf(digest(one).slice(0, 12))).toBeLessThan(markdown.indexOf('Between.'));
  expect(markdown).toContain('| name | size | unit |\n| --- | --- | --- |\n| bolt | 4 |  |\n| nut | 2 | mm |');
  expect(markdown).not.toContain('extra');
  const sent = chat.requests.filter((r) => r.imageDigests.includes(digest(one)));
  expect(sent).toHaveLength(1);
  expect(sent[0]?.authorization).toBe('Bearer sk-vision-test-000111');
});

it('a failed call fails the attempt retryable; the next attempt sends only the images not yet described', async () => {
  const one = png();
  const two = png();
  const input = await seed(
    '# R\n\n![a](images/a.png)\n\n![b](images/b.png)\n',
    { imageDescriptions: true },
    ['vision'],
    { 'a.png': one, 'b.png': two },
  );
  chat.queueFaults('none', 'server-error');
  const first = await runAttempt(cleaning, input).outcome;
  expect(first.error).toMatchObject({ type: 'PARSE_ENGINE_FAILED', nonRetryable: false });
  const second = await runAttempt(cleaning, input).outcome;
  expect(second.error).toBeUndefined();
  expect([visionAsked(one), visionAsked(two)]).toEqual([1, 2]);
  expect(await storedMarkdown(input)).toContain(fakeVisionAnswer(digest(two)));
});

it('a 4xx from the model is permanent; a dead endpoint is retryable', async () => {
  const refused = await seed('# R\n\n![a](images/a.png)\n', { imageDescriptions: true }, ['vision'], {
    'a.png': png(),
  });
  chat.queueFaults('client-error');
  expect((await runAttempt(cleaning, refused).outcome).error).toMatchObject({
    type: 'PARSE_ENGINE_FAILED',
    nonRetryable: true,
  });

  const dead = await seed('# R\n\n![a](images/a.png)\n', { imageDescriptions: true }, [], { 'a.png': png() });
  await saveModelSettings({ db, config }, dead.userId, 'vision', { baseUrl: 'http://127.0.0.1:9/v1', model: 'gone' });
  expect((await runAttempt(cleaning, dead).outcome).error).toMatchObject({
    type: 'PARSE_ENGINE_FAILED',
    nonRetryable: false,
  });
});

it('without a VISION model the images stay and nothing is sent; table repair without CHAT fails LLM_CONFIG_MISSING', async () => {
  const before = chat.requests.length;
  const images = await seed('# R\n\n![a](images/a.png)\n', { imageDescriptions: true }, [], { 'a.png': png() });
  const skipped = await runAttempt(cleaning, images).outcome;
  expect(skipped.error).toBeUndefined();
  expect(await storedMarkdown(images)).toContain('![a](images/a.png)');

  const tables = await seed(`# R\n\n${RAGGED}\n`, { tableRepair: true }, []);
  expect((await runAttempt(cleaning, tables).outcome).error).toMatchObject({
    type: 'LLM_CONFIG_MISSING',
    nonRetryable: true,
  });
  expect(chat.requests.length).toBe(before);
});

it('model output is data: an injected answer stays one capped quoted line, a bad table answer keeps the original', async () => {
  const big = Buffer.concat([png(), randomBytes(8192)]);
  const input = await seed(
    `# R\n\n![a](images/a.png)\n\n![big](images/big.png)\n\n${RAGGED}\n\n## Next\n\n${RAGGED.replace('bolt', 'screw')}\n`,
    { imageDescriptions: true, tableRepair: true },
    ['vision', 'chat'],
    { 'a.png': png(), 'big.png': big },
  );
  chat.queueFaults('malformed', 'malformed', 'ragged-table');
  const { error } = await runAttempt(cleaning, input).outcome;
  expect(error).toBeUndefined();
  const markdown = await storedMarkdown(input);
  const described = markdown.split('\n').filter((l) => l.startsWith('> **Image description'));
  expect(described).toHaveLength(1);
  expect(described[0]?.length).toBeLessThan(1200);
  expect(markdown).not.toMatch(/^# New heading/m);
  // The image over SLUICE_VISION_MAX_IMAGE_BYTES was not sent: its reference stays.
  expect(markdown).toContain('![big](images/big.png)');
  expect(visionAsked(big)).toBe(0);
  // Neither answer was a well-formed table: both originals stay.
  expect(markdown).toContain(RAGGED);
  expect(markdown).toContain(RAGGED.replace('bolt', 'screw'));
  // The refusals are checkpoints too: a new attempt asks nothing again.
  const before = chat.requests.length;
  expect((await runAttempt(cleaning, input).outcome).error).toBeUndefined();
  expect(chat.requests.length).toBe(before);
});

const cleaningState = (input: StageInput) =>
  db
    .selectFrom('pipelines')
    .innerJoin('parse_tasks', 'parse_tasks.task_id', 'pipelines.task_id')
    .select([
      'pipelines.cleaning_status as status',
      'parse_tasks.markdown_object_key as key',
      'parse_tasks.detected_type as type',
    ])
    .where('pipelines.task_id', '=', input.taskId)
    .executeTakeFirstOrThrow();

it('the parse leaves CLEANING open with its outputs on the task; enrichMarkdown records its SUCCESS, and once done it is skipped', async () => {
  const one = png();
  const input = await seed('# R\n\n![a](images/a.png)\n', { imageDescriptions: true }, ['vision'], { 'a.png': one });
  const key = objectKeys.markdown(input.userId, input.documentId, input.taskId);
  // Nothing for the workflow's history: the parse is on the task row.
  const again = await runAttempt(parseForEnrichment, input).outcome;
  expect(again.result).toMatchObject({ stage: 'CLEANING', skipped: false });
  expect(again.result).not.toHaveProperty('parsed');
  expect(await cleaningState(input)).toEqual({ status: 'PROCESSING', key, type: 'md' });

  const done = await runAttempt(cleaning, input).outcome;
  expect(done.result).toMatchObject({ stage: 'CLEANING', skipped: false });
  expect(await cleaningState(input)).toEqual({ status: 'SUCCESS', key, type: 'md' });
  const before = chat.requests.length;
  expect((await runAttempt(cleaning, input).outcome).result).toMatchObject({ skipped: true });
  expect((await runAttempt(parseForEnrichment, input).outcome).result).toMatchObject({ skipped: true });
  expect(chat.requests.length).toBe(before);
  expect(visionAsked(one)).toBe(1);
});

it('takes the parse a run started on an older worker hands on, and fails PARSE_ENGINE_FAILED when none was recorded', async () => {
  const table = '# R\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n';
  // An older parseForEnrichment returned its parse instead of recording it on the task.
  const forget = (input: StageInput) =>
    db.updateTable('parse_tasks').set({ markdown_object_key: null }).where('task_id', '=', input.taskId).execute();

  const older = await seed(table, { tableRepair: true }, ['chat']);
  await forget(older);
  const key = objectKeys.markdown(older.userId, older.documentId, older.taskId);
  const handedOn = { ...older, parsed: { detectedType: 'md', markdownObjectKey: key, parseMs: 5 } };
  expect((await runAttempt(cleaning, handedOn).outcome).result).toMatchObject({ stage: 'CLEANING', skipped: false });
  expect(await cleaningState(older)).toEqual({ status: 'SUCCESS', key, type: 'md' });

  const lost = await seed(table, { tableRepair: true }, ['chat']);
  await forget(lost);
  const failed = await runAttempt(cleaning, lost).outcome;
  expect(failed.error).toMatchObject({ type: 'PARSE_ENGINE_FAILED', nonRetryable: true });
});

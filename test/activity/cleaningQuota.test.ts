import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createCleaningActivity } from '../../activities/stages/cleaning';
import type { StageInput } from '../../contracts/ingest';
import { createCpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { usageOf } from '../../db/repositories/documentCatalog';
import { findDocument, insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { partialDeps, runAttempt } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// What a document produces (its markdown) counts against its user's quota, as its upload does:
// CLEANING records it under the per-user quota lock, and refuses it with QUOTA_EXCEEDED when the
// quota has no room for it.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-cleaning-quota-${randomUUID()}`);
const objects = createLocalObjectStore(path.join(root, 'objects'));
const cpu = createCpuPool({ threads: 1, limits: DEFAULT_PARSE_LIMITS });
afterAll(async () => {
  await cpu.close();
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const SOURCE = `# Notes\n\n${'A line of notes that passes through as markdown.\n'.repeat(200)}`;
const SOURCE_BYTES = Buffer.byteLength(SOURCE);

function cleaningWithQuota(maxBytes: number) {
  const settings = {
    tmpDir: path.join(root, 'tmp'),
    maxFileBytes: 1024 * 1024,
    quota: { maxBytes, maxDocuments: 10 },
  };
  return createCleaningActivity(partialDeps({ db, objects, cpu, settings: settings as never }));
}

async function seedMarkdownDocument(): Promise<Omit<StageInput, 'taskId'>> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: 'ds' };
  const key = `sources/${doc.documentId}`;
  await objects.putText(key, SOURCE);
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'notes.md',
    size_bytes: SOURCE_BYTES,
    content_sha256: randomUUID(),
    source_object_key: key,
  });
  return doc;
}

async function newTask(doc: Omit<StageInput, 'taskId'>): Promise<StageInput> {
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(db, { taskId: input.taskId, documentId: doc.documentId, ownerRunChain: randomUUID() });
  return input;
}

it('refuses markdown the quota has no room for as QUOTA_EXCEEDED, recording nothing', async () => {
  const doc = await seedMarkdownDocument();
  const input = await newTask(doc);
  // Room for the upload, not for the upload and its markdown.
  const { error } = await runAttempt(cleaningWithQuota(SOURCE_BYTES + SOURCE_BYTES / 2), input).outcome;
  expect(error).toMatchObject({ type: 'QUOTA_EXCEEDED', nonRetryable: true });
  expect(Number((await findDocument(db, doc.documentId))?.produced_bytes)).toBe(0);
});

it('counts what a parse produced in the usage, once however often CLEANING runs', async () => {
  const doc = await seedMarkdownDocument();
  // Room for the upload and one copy of its markdown, not two.
  const cleaning = cleaningWithQuota(SOURCE_BYTES * 2 + 100);
  for (let run = 0; run < 2; run++) {
    const { error } = await runAttempt(cleaning, await newTask(doc)).outcome;
    expect(error).toBeUndefined();
  }
  expect(Number((await findDocument(db, doc.documentId))?.produced_bytes)).toBe(SOURCE_BYTES);
  expect(await usageOf(db, doc.userId)).toEqual({ documents: 1, bytes: SOURCE_BYTES * 2 });
});

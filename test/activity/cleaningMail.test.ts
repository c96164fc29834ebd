import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createCleaningActivity } from '../../activities/stages/cleaning';
import type { StageInput } from '../../contracts/ingest';
import { createCpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { findDocument, insertDocument } from '../../db/repositories/documents';
import { attachedDocuments } from '../../db/repositories/mailAttachments';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { objectKeys } from '../../stores/objectKeys';
import { emlFixture } from '../../testkit/fixtures/mailFixture';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { partialDeps, runAttempt } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// CLEANING of an e-mail registers its attachments as documents linked to it, under the user's
// quota like uploads, and only once however often it runs (a retried CLEANING, a replayed run);
// an attachment the quota has no room for is listed on the message with its code.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-cleaning-mail-${randomUUID()}`);
const tmpDir = path.join(root, 'tmp');
const objects = createLocalObjectStore(path.join(root, 'objects'));
const cpu = createCpuPool({ threads: 1, limits: DEFAULT_PARSE_LIMITS });
afterAll(async () => {
  await cpu.close();
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const pdf = (text: string) => ({ name: `${text}.pdf`, type: 'application/pdf', bytes: fixturePdf([[{ text }]]) });
const MESSAGE = emlFixture({
  from: 'alice@example.org',
  to: 'ops@example.org',
  subject: 'Three reports',
  date: 'Mon, 07 Dec 2026 10:00:00 +0000',
  body: 'Three reports attached.',
  attachments: [pdf('first'), pdf('second'), pdf('third')],
});

// Room for the message and two attachments: the third is refused QUOTA_EXCEEDED.
const cleaning = createCleaningActivity(
  partialDeps({
    db,
    objects,
    cpu,
    settings: { tmpDir, maxFileBytes: 1024 * 1024, quota: { maxBytes: 10 * 1024 * 1024, maxDocuments: 3 } } as never,
  }),
);

async function seedMessage(): Promise<Omit<StageInput, 'taskId'>> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: 'ds' };
  const key = `sources/${doc.documentId}`;
  await objects.putText(key, MESSAGE.toString('latin1'));
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'reports.eml',
    size_bytes: MESSAGE.length,
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

it('registers each attachment once, linked to its message, and lists the one the quota refused', async () => {
  const doc = await seedMessage();
  for (let run = 0; run < 2; run++) {
    const { result, error } = await runAttempt(cleaning, await newTask(doc)).outcome;
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ stage: 'CLEANING', mail: true });
  }
  const meta = (await findDocument(db, doc.documentId))?.metadata ?? {};
  expect(meta).toMatchObject({
    'mail.from': 'alice@example.org',
    'mail.refusedAttachments': ['third.pdf: QUOTA_EXCEEDED'],
  });
  const attached = await attachedDocuments(db, doc, doc.documentId, 100);
  expect(attached.map((a) => a.id).sort()).toEqual([...(meta['mail.attachments'] as string[])].sort());
  expect(attached).toHaveLength(2);
  for (const { id } of attached) {
    const row = await findDocument(db, id);
    expect(row).toMatchObject({ file_type: 'pdf', last_task_id: null });
    expect(row?.metadata).toMatchObject({ attachedTo: doc.documentId, 'mail.subject': 'Three reports' });
    expect(await objects.exists(objectKeys.source(doc.userId, id))).toBe(true);
  }
  // The parse's attachment files went with the attempt.
  expect(fs.readdirSync(tmpDir)).toEqual([]);
});

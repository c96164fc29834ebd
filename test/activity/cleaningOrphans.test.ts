import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createCleaningActivity } from '../../activities/stages/cleaning';
import { createDb } from '../../db/connection';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { objectKeys } from '../../stores/objectKeys';
import { partialDeps } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// A soak found markdown objects referenced by no row: a CLEANING attempt stored its
// markdown, Postgres went away before the SUCCESS that records the key, the task exhausted its
// retries and the admin retry parsed again under a new task id.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-activity-${randomUUID()}`);
const objects = createLocalObjectStore(root);
afterAll(async () => {
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const settings = { tmpDir: path.join(root, 'tmp'), maxFileBytes: 4096 };
const cleaning = createCleaningActivity(partialDeps({ db, objects, settings: settings as never }));

async function failedThenRetried(recorded: boolean) {
  const doc = { documentId: randomUUID(), userId: `user-${randomUUID()}`, datasetId: 'ds' };
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'notes.md',
    size_bytes: 1,
    content_sha256: randomUUID(),
    // No source object: the retried attempt fails SOURCE_FILE_NOT_FOUND after its clean-up step.
    source_object_key: objectKeys.source(doc.userId, doc.documentId),
  });
  const failed = randomUUID();
  const left = objectKeys.markdown(doc.userId, doc.documentId, failed);
  await objects.putText(left, '# parsed before Postgres went away');
  await insertTaskWithPipeline(db, {
    taskId: failed,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    ...(recorded ? { markdownObjectKey: left } : {}),
  });
  const retry = randomUUID();
  await insertTaskWithPipeline(db, {
    taskId: retry,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    retryOfTaskId: failed,
  });
  const attempt = new MockActivityEnvironment().run(cleaning, { ...doc, taskId: retry });
  await expect(attempt).rejects.toMatchObject({ type: 'SOURCE_FILE_NOT_FOUND' });
  return objects.exists(left);
}

it('a retry removes the markdown its failed predecessor stored but never recorded', async () => {
  expect(await failedThenRetried(false)).toBe(false);
});

it('never removes a markdown object a task row references', async () => {
  expect(await failedThenRetried(true)).toBe(true);
});

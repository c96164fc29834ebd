import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createPrepareTaskActivity, type PrepareInput } from '../../activities/prepareTask';
import { createDb } from '../../db/connection';
import { findDocument } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { partialDeps } from '../support/stageHarness';
import { TEST_DATABASE_URL } from '../support/testConfig';

// prepareTask for a run started from a named source (any Temporal SDK): the file is registered
// as an upload would be, once, and each refusal is a permanent classified failure.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-activity-${randomUUID()}`);
const objects = createLocalObjectStore(root);
afterAll(async () => {
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const settings = {
  maxFileBytes: 4096,
  quota: { maxBytes: 1_000_000, maxDocuments: 3 },
  objectBucket: null,
  localStages: { maxSourceBytes: 0, maxChunks: 0 },
};
const prepareTask = createPrepareTaskActivity(partialDeps({ db, objects, settings: settings as never }));

function sourceRun(userId: string, objectKey: string, documentId: string = randomUUID()): PrepareInput {
  return {
    documentId,
    taskId: randomUUID(),
    userId,
    datasetId: 'ds',
    retryWait: '1h',
    ownerRunChain: randomUUID(),
    source: { objectKey },
    fileName: 'notes.md',
  };
}

async function failureOf(
  input: PrepareInput,
): Promise<{ type: string | undefined; nonRetryable: boolean | undefined }> {
  try {
    await new MockActivityEnvironment().run(prepareTask, input);
  } catch (error) {
    const failure = error as { type?: string; nonRetryable?: boolean };
    return { type: failure.type, nonRetryable: failure.nonRetryable };
  }
  throw new Error('prepareTask did not fail');
}

it("registers the source under sluice's own key once, and a retried attempt goes on with it", async () => {
  const user = `u-${randomUUID()}`;
  await objects.putText(`inbox/${user}/a.md`, '# Notes\n\nSome text to ingest.\n');
  const input = sourceRun(user, `inbox/${user}/a.md`);
  const first = await new MockActivityEnvironment().run(prepareTask, input);
  expect(first).toMatchObject({ kind: 'run', taskId: input.taskId });
  const doc = await findDocument(db, input.documentId);
  expect(doc).toMatchObject({
    user_id: user,
    dataset_id: 'ds',
    file_name: 'notes.md',
    file_type: 'md',
    source_object_key: objectKeys.source(user, input.documentId),
  });
  expect(await objects.getText(objectKeys.source(user, input.documentId))).toContain('Some text');
  // The same activity again (a retry after a lost completion): the same task resumes, no second row.
  expect(await new MockActivityEnvironment().run(prepareTask, input)).toMatchObject({
    kind: 'run',
    taskId: input.taskId,
  });
  const rows = await db.selectFrom('documents').select('id').where('user_id', '=', user).execute();
  expect(rows.map((r) => r.id)).toEqual([input.documentId]);

  // Another run naming the same content answers with the first document.
  const again = await new MockActivityEnvironment().run(prepareTask, sourceRun(user, `inbox/${user}/a.md`));
  expect(again).toMatchObject({ kind: 'duplicate', documentId: input.documentId, status: 'PENDING' });
});

it('refuses a missing source, an unsupported type, an oversized file and a spent quota with their codes', async () => {
  const user = `u-${randomUUID()}`;
  expect(await failureOf(sourceRun(user, `inbox/${user}/missing.md`))).toEqual({
    type: 'SOURCE_FILE_NOT_FOUND',
    nonRetryable: true,
  });
  await objects.putStream(
    `inbox/${user}/x.bin`,
    (await import('node:stream')).Readable.from([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0, 0, 0])]),
  );
  expect(await failureOf({ ...sourceRun(user, `inbox/${user}/x.bin`), fileName: 'x.bin' })).toEqual({
    type: 'UNSUPPORTED_FILE_TYPE',
    nonRetryable: true,
  });
  await objects.putText(`inbox/${user}/big.md`, 'word '.repeat(2000));
  expect(await failureOf(sourceRun(user, `inbox/${user}/big.md`))).toEqual({
    type: 'FILE_TOO_LARGE',
    nonRetryable: true,
  });
  for (let i = 0; i < 3; i += 1) {
    await objects.putText(`inbox/${user}/${i}.md`, `document number ${i}\n`);
    await new MockActivityEnvironment().run(prepareTask, sourceRun(user, `inbox/${user}/${i}.md`));
  }
  await objects.putText(`inbox/${user}/4.md`, 'one too many\n');
  expect(await failureOf(sourceRun(user, `inbox/${user}/4.md`))).toEqual({
    type: 'QUOTA_EXCEEDED',
    nonRetryable: true,
  });
  // Nothing of the refused files was stored under sluice's keys.
  const stored = await db.selectFrom('documents').select('id').where('user_id', '=', user).execute();
  expect(stored).toHaveLength(3);
});

it('refuses an input outside the contract, and a source run without a UUID document id', async () => {
  expect(await failureOf({ ...sourceRun('u', 'inbox/a.md'), fileName: undefined })).toEqual({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
  expect(await failureOf(sourceRun('u', 'inbox/a.md', 'not-a-uuid'))).toEqual({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
  expect(await failureOf(sourceRun('u', `documents/u/${randomUUID()}/source`))).toEqual({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
});

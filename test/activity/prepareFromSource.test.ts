import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createPrepareTaskActivity, type PrepareInput } from '../../activities/stages/prepareTask';
import { ingestWorkflowId } from '../../contracts/ingest';
import { createDb } from '../../db/connection';
import { findDocument } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { partialDeps } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

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
  fairness: { on: true, weights: {} },
};
const prepareTask = createPrepareTaskActivity(
  partialDeps({ db, objects, settings: settings as never, callerClaims: { required: false, secrets: [] } }),
);

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

/** An attempt of prepareTask in the run the input names: workflow id ingest:<documentId>. */
function runPrepare(input: PrepareInput, workflowId = ingestWorkflowId(input.documentId)) {
  return new MockActivityEnvironment({ workflowExecution: { workflowId, runId: input.ownerRunChain } }).run(
    prepareTask,
    input,
  );
}

async function failureOf(
  input: PrepareInput,
  workflowId?: string,
): Promise<{ type: string | undefined; nonRetryable: boolean | undefined; message?: string }> {
  try {
    await runPrepare(input, workflowId);
  } catch (error) {
    const failure = error as { type?: string; nonRetryable?: boolean; message?: string };
    return { type: failure.type, nonRetryable: failure.nonRetryable, message: failure.message };
  }
  throw new Error('prepareTask did not fail');
}

it("registers the source under sluice's own key once, and a retried attempt goes on with it", async () => {
  const user = `u-${randomUUID()}`;
  await objects.putText(`inbox/${user}/a.md`, '# Notes\n\nSome text to ingest.\n');
  const input = sourceRun(user, `inbox/${user}/a.md`);
  const first = await runPrepare(input);
  expect(first).toMatchObject({ kind: 'run', taskId: input.taskId });
  const doc = await findDocument(db, input.documentId);
  expect(doc).toMatchObject({
    user_id: user,
    dataset_id: 'ds',
    file_name: 'notes.md',
    file_type: 'md',
  });
  // The copy of the attempt that registered it, under the document's own prefix.
  expect(doc!.source_object_key.startsWith(`${objectKeys.documentPrefix(user, input.documentId)}sources/`)).toBe(true);
  expect(await objects.getText(doc!.source_object_key)).toContain('Some text');
  // The same activity again (a retry after a lost completion): the same task resumes, no second row.
  expect(await runPrepare(input)).toMatchObject({
    kind: 'run',
    taskId: input.taskId,
  });
  const rows = await db.selectFrom('documents').select('id').where('user_id', '=', user).execute();
  expect(rows.map((r) => r.id)).toEqual([input.documentId]);

  // Another run naming the same content answers with the first document.
  const again = await runPrepare(sourceRun(user, `inbox/${user}/a.md`));
  expect(again).toMatchObject({ kind: 'duplicate', documentId: input.documentId, status: 'PENDING' });
});

it('refuses a missing source, an unsupported type, an oversized file and a spent quota with their codes', async () => {
  const user = `u-${randomUUID()}`;
  expect(await failureOf(sourceRun(user, `inbox/${user}/missing.md`))).toMatchObject({
    type: 'SOURCE_FILE_NOT_FOUND',
    nonRetryable: true,
  });
  await objects.putStream(
    `inbox/${user}/x.bin`,
    (await import('node:stream')).Readable.from([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0, 0, 0])]),
  );
  expect(await failureOf({ ...sourceRun(user, `inbox/${user}/x.bin`), fileName: 'x.bin' })).toMatchObject({
    type: 'UNSUPPORTED_FILE_TYPE',
    nonRetryable: true,
  });
  await objects.putText(`inbox/${user}/big.md`, 'word '.repeat(2000));
  expect(await failureOf(sourceRun(user, `inbox/${user}/big.md`))).toMatchObject({
    type: 'FILE_TOO_LARGE',
    nonRetryable: true,
  });
  for (let i = 0; i < 3; i += 1) {
    await objects.putText(`inbox/${user}/${i}.md`, `document number ${i}\n`);
    await runPrepare(sourceRun(user, `inbox/${user}/${i}.md`));
  }
  await objects.putText(`inbox/${user}/4.md`, 'one too many\n');
  expect(await failureOf(sourceRun(user, `inbox/${user}/4.md`))).toMatchObject({
    type: 'QUOTA_EXCEEDED',
    nonRetryable: true,
  });
  // Nothing of the refused files was stored under sluice's keys.
  const stored = await db.selectFrom('documents').select('id').where('user_id', '=', user).execute();
  expect(stored).toHaveLength(3);
});

it('refuses an input outside the contract, and a source run without a UUID document id', async () => {
  expect(await failureOf({ ...sourceRun('u', 'inbox/a.md'), fileName: undefined })).toMatchObject({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
  expect(await failureOf(sourceRun('u', 'inbox/a.md', 'not-a-uuid'))).toMatchObject({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
  expect(await failureOf(sourceRun('u', `documents/u/${randomUUID()}/source`))).toMatchObject({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
});

it('refuses a run outside its workflow id ingest:<documentId>', async () => {
  const user = `u-${randomUUID()}`;
  await objects.putText(`inbox/${user}/w.md`, '# W\n\ntext\n');
  const input = sourceRun(user, `inbox/${user}/w.md`);
  expect(await failureOf(input, `ingest:${randomUUID()}`)).toMatchObject({
    type: 'INVALID_INGEST_INPUT',
    nonRetryable: true,
  });
  expect(await failureOf(input, 'my-own-workflow-id')).toMatchObject({ type: 'INVALID_INGEST_INPUT' });
  expect(await findDocument(db, input.documentId)).toBeUndefined();
});

it('cleans a source run file name as an upload is cleaned: no ANSI escapes, no bidi overrides', async () => {
  const user = `u-${randomUUID()}`;
  await objects.putText(`inbox/${user}/n.md`, '# N\n\nnamed text\n');
  const input = { ...sourceRun(user, `inbox/${user}/n.md`), fileName: '\u001b[31mred\u001b[0m\u202efdp.md\u200b' };
  await runPrepare(input);
  expect((await findDocument(db, input.documentId))?.file_name).toBe('[31mred[0mfdp.md');
});

it("answers a run naming another user's or dataset's document as if it did not exist, and dedupes only within the dataset", async () => {
  const alice = `alice-${randomUUID()}`;
  const bob = `bob-${randomUUID()}`;
  await objects.putText(`inbox/${alice}/s.md`, '# Secret\n\nalice only\n');
  const hers = sourceRun(alice, `inbox/${alice}/s.md`);
  await runPrepare(hers);

  // A registered-document run (no source) naming her document, as bob, or as her in another dataset.
  const asBob = { ...hers, source: undefined, fileName: undefined, userId: bob, taskId: randomUUID() };
  const otherDataset = { ...asBob, userId: alice, datasetId: 'elsewhere', taskId: randomUUID() };
  const missing = { ...asBob, documentId: randomUUID(), taskId: randomUUID() };
  const answers = await Promise.all([asBob, otherDataset, missing].map((input) => failureOf(input)));
  expect(answers.map((a) => a.type)).toEqual(['DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_FOUND']);
  // The same words as for an id that exists nowhere, once the id itself is taken out.
  const words = answers.map((a, i) => a.message?.replace([hers, hers, missing][i]!.documentId, '<id>'));
  expect(new Set(words).size).toBe(1);
  // Her pipeline was not touched: still her one task.
  const tasks = await db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('document_id', '=', hers.documentId)
    .execute();
  expect(tasks.map((t) => t.task_id)).toEqual([hers.taskId]);

  // A source run of bob's naming her document id is refused with the same words as in her other dataset.
  await objects.putText(`inbox/${bob}/s.md`, '# Secret\n\nalice only\n');
  const bobSource = { ...sourceRun(bob, `inbox/${bob}/s.md`, hers.documentId) };
  const herOtherDataset = { ...sourceRun(alice, `inbox/${alice}/s.md`, hers.documentId), datasetId: 'elsewhere' };
  const [bobAnswer, herAnswer] = [await failureOf(bobSource), await failureOf(herOtherDataset)];
  expect(bobAnswer).toMatchObject({ type: 'INVALID_INGEST_INPUT', nonRetryable: true });
  expect(bobAnswer.message).toBe(herAnswer.message);
  // The same content under his own id is his own new document, not an answer about hers.
  const own = sourceRun(bob, `inbox/${bob}/s.md`);
  expect(await runPrepare(own)).toMatchObject({ kind: 'run', taskId: own.taskId });
  expect((await findDocument(db, own.documentId))?.user_id).toBe(bob);
});

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
import { stallFirstRead } from '../../testkit/fakes/stallingObjectStore';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// Two attempts of one source registration that overlap: the first is still copying (its read
// stalls, as a large object's copy outlasts an attempt's timeout) when the retry starts, copies
// and registers the document. Whatever the first attempt then does, the document keeps its source.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-overlap-${randomUUID()}`);
const local = createLocalObjectStore(root);
afterAll(async () => {
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const settings = {
  maxFileBytes: 1_000_000,
  quota: { maxBytes: 10_000_000, maxDocuments: 100 },
  objectBucket: null,
  localStages: { maxSourceBytes: 0, maxChunks: 0 },
  fairness: { on: false, weights: {} },
};
// Larger than the stalled first part, so the first attempt is caught inside its copy.
const CONTENT = `# Overlap\n\n${'A copy that outlasts its attempt. '.repeat(1500)}\n`;

async function overlapping(late: { fail: boolean }) {
  const user = `u-${randomUUID()}`;
  const sourceKey = `inbox/${user}/big.md`;
  await local.putText(sourceKey, CONTENT);
  const store = stallFirstRead(local, sourceKey);
  const prepareTask = createPrepareTaskActivity(
    partialDeps({
      db,
      objects: store.objects,
      settings: settings as never,
      callerClaims: { required: false, secrets: [] },
    }),
  );
  const documentId = randomUUID();
  const input: PrepareInput = {
    documentId,
    taskId: randomUUID(),
    userId: user,
    datasetId: 'ds',
    retryWait: '1h',
    ownerRunChain: randomUUID(),
    source: { objectKey: sourceKey },
    fileName: 'big.md',
  };
  const attempt = () =>
    new MockActivityEnvironment({
      workflowExecution: { workflowId: ingestWorkflowId(documentId), runId: input.ownerRunChain },
    }).run(prepareTask, input);

  const first = attempt();
  first.catch(() => undefined);
  await store.stalled;
  // The retry after the first attempt's timeout: it copies and registers the document.
  const second = await attempt();
  expect(second).toMatchObject({ kind: 'run', taskId: input.taskId });
  store.release(late.fail ? new Error('connection reset while copying') : undefined);
  const settled = await first.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  return { user, documentId, input, settled };
}

async function keysOf(documentId: string, user: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of local.listOlderThan(
    objectKeys.documentPrefix(user, documentId),
    new Date(Date.now() + 60_000),
  ))
    keys.push(...page);
  return keys;
}

it('the attempt that finishes copying second recognises the registration as its own and removes only its own copy', async () => {
  const { user, documentId, input, settled } = await overlapping({ fail: false });
  // The same task goes on: not taken for a duplicate of another document.
  expect(settled).toEqual({ result: expect.objectContaining({ kind: 'run', taskId: input.taskId }) as unknown });
  const doc = await findDocument(db, documentId);
  expect(doc).toBeDefined();
  expect(await local.getText(doc!.source_object_key)).toBe(CONTENT);
  // One row, and one stored copy: the one the row names.
  const rows = await db.selectFrom('documents').select('id').where('user_id', '=', user).execute();
  expect(rows.map((r) => r.id)).toEqual([documentId]);
  expect(await keysOf(documentId, user)).toEqual([doc!.source_object_key]);
});

it('a first attempt whose copy fails after the retry registered the document leaves the source in place', async () => {
  const { user, documentId, settled } = await overlapping({ fail: true });
  expect(settled).toHaveProperty('error');
  const doc = await findDocument(db, documentId);
  expect(await local.getText(doc!.source_object_key)).toBe(CONTENT);
  expect(await keysOf(documentId, user)).toEqual([doc!.source_object_key]);
});

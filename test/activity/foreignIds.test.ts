import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createDeletionActivities } from '../../activities/maintenance/deletion';
import { createPrepareTaskActivity, type PrepareInput } from '../../activities/stages/prepareTask';
import { ingestWorkflowId } from '../../contracts/ingest';
import { createDb } from '../../db/connection';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { partialDeps, seedDocument } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// Ids a caller passes are checked against the document and user they name: a task id of another
// document, or a deletion for another user, is refused as ID_MISMATCH and changes nothing.

const db = createDb(TEST_DATABASE_URL, 4);
afterAll(() => db.destroy());

const deps = partialDeps({
  db,
  settings: { localStages: { maxSourceBytes: 0, maxChunks: 0 }, fairness: { on: false, weights: {} } } as never,
  callerClaims: { required: false, secrets: [] },
});
const prepareTask = createPrepareTaskActivity(deps);
const { markDocumentDeleting } = createDeletionActivities(deps);

function prepare(input: PrepareInput) {
  return new MockActivityEnvironment({
    workflowExecution: { workflowId: ingestWorkflowId(input.documentId), runId: input.ownerRunChain },
  }).run(prepareTask, input);
}

async function runningTask() {
  const { doc } = await seedDocument(db, 0);
  const input: PrepareInput = { ...doc, taskId: randomUUID(), retryWait: '1h', ownerRunChain: randomUUID() };
  expect(await prepare(input)).toMatchObject({ kind: 'run', taskId: input.taskId });
  return input;
}

it("refuses a run naming another document's task id, leaving that task unfinished and its owner able to resume", async () => {
  const victim = await runningTask();
  const { doc: own } = await seedDocument(db, 0);
  const attack = prepare({ ...own, taskId: victim.taskId, retryWait: '1h', ownerRunChain: randomUUID() });
  await expect(attack).rejects.toMatchObject({ type: 'ID_MISMATCH', nonRetryable: true });

  const pipeline = await getPipeline(db, victim.taskId);
  expect(pipeline).toMatchObject({ pipeline_status: 'PENDING', failure_code: null, document_id: victim.documentId });
  // The owner's run (an activity retry, a reset) still resumes its task.
  expect(await prepare(victim)).toMatchObject({ kind: 'run', taskId: victim.taskId });
  const tasks = await db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('document_id', '=', own.documentId)
    .execute();
  expect(tasks).toEqual([]);
});

it('refuses to mark DELETING a document of another user or dataset, and marks its owner’s', async () => {
  const { doc } = await seedDocument(db, 0);
  for (const stranger of [
    { userId: `u-${randomUUID()}` },
    { userId: doc.userId, datasetId: `ds-${randomUUID()}` },
    { userId: '' },
  ]) {
    const refused = new MockActivityEnvironment().run(markDocumentDeleting, {
      documentId: doc.documentId,
      ...stranger,
    });
    await expect(refused).rejects.toMatchObject({ type: 'ID_MISMATCH', nonRetryable: true });
  }
  // A bare document id names no owner: refused, or any client could delete any tenant's document.
  await expect(new MockActivityEnvironment().run(markDocumentDeleting, doc.documentId)).rejects.toMatchObject({
    type: 'ID_MISMATCH',
    nonRetryable: true,
  });
  expect((await findDocument(db, doc.documentId))?.lifecycle).toBe('ACTIVE');

  const owner = await new MockActivityEnvironment().run(markDocumentDeleting, { ...doc });
  expect(owner).toEqual({ documentId: doc.documentId, userId: doc.userId, datasetId: doc.datasetId });
  expect((await findDocument(db, doc.documentId))?.lifecycle).toBe('DELETING');
  const gone = await new MockActivityEnvironment().run(markDocumentDeleting, {
    documentId: randomUUID(),
    userId: doc.userId,
  });
  expect(gone).toBeNull();
});

import { randomUUID } from 'node:crypto';
import { retryDocument } from '../../client/documentAdmin';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks } from '../../db/repositories/chunks';
import { getPipeline } from '../../db/repositories/pipelines';
import { eventually, ingestBuffer, sectionedMarkdown, waitForTask } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'interrupted' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({ config: testConfig({ SLUICE_EMBED_BATCH_SIZE: '2' }) });
});
afterAll(() => tw.shutdown());

/** Starts a document and terminates its run from outside while VECTORIZING is under way. */
async function terminatedMidway(tag: string): Promise<{ documentId: string; taskId: string }> {
  const started = await ingestBuffer(tw, sectionedMarkdown(800, tag), 'doc.md', scope);
  await eventually(
    () => countChunks(tw.adapters.db, started.documentId),
    (c) => c.dense > 0,
    120_000,
    20,
  );
  await tw.client.workflow.getHandle(ingestWorkflowId(started.documentId)).terminate('operator terminated it');
  expect((await getPipeline(tw.adapters.db, started.taskId)).pipeline_status).toBe('PROCESSING');
  return started;
}

it('the stuck-task sweep converges a task whose run was terminated to FAILED / INTERRUPTED_TASK', async () => {
  const { taskId } = await terminatedMidway('swept');
  const { swept } = await tw.client.workflow.execute('sweepStuckTasks', {
    workflowId: `sweep-${randomUUID()}`,
    taskQueue: tw.config.temporal.taskQueue,
    args: [{ stuckAfterMs: 0 }],
  });
  expect(swept).toContain(taskId);
  expect(await getPipeline(tw.adapters.db, taskId)).toMatchObject({
    pipeline_status: 'FAILED',
    failure_code: 'INTERRUPTED_TASK',
    vectorizing_status: 'FAILED',
    recover_from_stage: 'VECTORIZING',
  });
});

it('a retry of a terminated run converges the old task and takes it over from VECTORIZING', async () => {
  const { documentId, taskId } = await terminatedMidway('retried');
  const { taskId: newTaskId, via } = await retryDocument(
    { client: tw.client, db: tw.adapters.db, config: tw.config },
    documentId,
  );
  expect(via).toBe('start');
  expect((await waitForTask(tw.client, documentId, newTaskId)).status).toBe('SUCCESS');
  expect(await getPipeline(tw.adapters.db, taskId)).toMatchObject({
    failure_code: 'INTERRUPTED_TASK',
    superseded_by_task_id: newTaskId,
  });
  const fresh = await getPipeline(tw.adapters.db, newTaskId);
  expect(fresh).toMatchObject({ cleaning_status: 'SUCCESS', chunking_status: 'SUCCESS', pipeline_status: 'SUCCESS' });
  expect(await countChunks(tw.adapters.db, documentId)).toMatchObject({
    active: 800,
    dense: 800,
    sparse: 800,
    keyword: 800,
  });
});

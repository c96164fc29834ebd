import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import Long from 'long';
import { temporal } from '@temporalio/proto';
import { ingestWorkflowId } from '../../contracts/ingest';
import type { Stage } from '../../contracts/stages';
import { countChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { injectStageFaults } from '../../testkit/harness/faultInjection';
import { localActivityType } from '../../testkit/harness/historyEvents';
import { ingestBuffer, sectionedMarkdown, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const EventType = temporal.api.enums.v1.EventType;
const scope = { userId: `user-${randomUUID()}`, datasetId: 'reset' };
const failOnce = new Map<string, Stage>();
const executions = new Map<string, number>();
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({ wrapActivities: injectStageFaults(failOnce, executions) });
});
afterAll(() => tw.shutdown());

/**
 * The WorkflowTaskCompleted event right after `activity` completed: where the Web UI's Reset
 * points. A local activity (prepareTask) has no events of its own: its result is a marker written
 * with the workflow task that ran it, so that task's WorkflowTaskCompleted is the point.
 */
async function eventAfterActivity(client: Client, workflowId: string, activity: string): Promise<number> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const list = events ?? [];
  const marker = list.find((e) => localActivityType(e) === activity);
  if (marker) {
    const task = list
      .filter(
        (e) =>
          e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && Number(e.eventId) < Number(marker.eventId),
      )
      .pop();
    if (!task) throw new Error(`no workflow task before the ${activity} marker`);
    return Number(task.eventId);
  }
  const scheduled = list.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activity);
  const completed = list.find(
    (e) => Number(e.activityTaskCompletedEventAttributes?.scheduledEventId) === Number(scheduled?.eventId),
  );
  const task = list.find(
    (e) =>
      e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && Number(e.eventId) > Number(completed?.eventId),
  );
  if (!task) throw new Error(`no workflow task after ${activity}`);
  return Number(task.eventId);
}

async function reset(client: Client, documentId: string, eventId: number): Promise<string> {
  const workflowId = ingestWorkflowId(documentId);
  const { runId } = await client.workflow.getHandle(workflowId).describe();
  const response = (await client.workflowService.resetWorkflowExecution({
    namespace: 'default',
    workflowExecution: { workflowId, runId },
    reason: 'test: operator reset',
    workflowTaskFinishEventId: Long.fromNumber(eventId),
    requestId: randomUUID(),
  })) as temporal.api.workflowservice.v1.IResetWorkflowExecutionResponse;
  return response.runId ?? '';
}

async function snapshot(documentId: string) {
  const chunkRows = await tw.adapters.db
    .selectFrom('chunks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('document_id', '=', documentId)
    .executeTakeFirstOrThrow();
  return {
    chunkRows: chunkRows.n,
    counts: await countChunks(tw.adapters.db, documentId),
    vectors: await tw.adapters.vectors.countForDocument(documentId),
    entries: await tw.adapters.keywords.countForDocument(documentId),
  };
}

it('a finished run reset to just after prepareTask ends SUCCESS with no duplicate chunk, vector or entry', async () => {
  const { documentId, taskId } = await ingestBuffer(tw, sectionedMarkdown(15, 'reset-a'), 'doc.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const before = await snapshot(documentId);
  const pipelineBefore = await getPipeline(tw.adapters.db, taskId);

  const runId = await reset(
    tw.client,
    documentId,
    await eventAfterActivity(tw.client, ingestWorkflowId(documentId), 'prepareTask'),
  );
  const result = await tw.client.workflow.getHandle(ingestWorkflowId(documentId), runId).result();
  expect(result).toMatchObject({ status: 'SUCCESS', taskId, chunkCount: 15 });
  expect(await snapshot(documentId)).toEqual(before);
  expect(before.counts.active).toBe(15);
  // prepareTask (a local activity, re-run by the reset) reported every stage SUCCESS, so the
  // workflow skipped them; the last stage ran again, saw its own SUCCESS and did no work twice.
  expect(executions.get(`${documentId}:CLEANING`)).toBe(1);
  expect(executions.get(`${documentId}:SPARSE_VECTORIZING`)).toBe(2);
  const pipelineAfter = await getPipeline(tw.adapters.db, taskId);
  expect(pipelineAfter.pipeline_status).toBe('SUCCESS');
  expect(pipelineAfter.cleaning_started_at).toEqual(pipelineBefore.cleaning_started_at);
  expect(pipelineAfter.vectorizing_ms).toBe(pipelineBefore.vectorizing_ms);
});

it('a run failed at KEYWORD_INDEXING, reset to just after VECTORIZING, resumes there and ends SUCCESS', async () => {
  const { documentId, taskId } = await ingestBuffer(tw, sectionedMarkdown(15, 'reset-b'), 'doc.md', scope, {
    beforeStart: (id) => failOnce.set(id, 'KEYWORD_INDEXING'),
  });
  expect((await waitTerminal(tw.client, documentId)).status).toBe('FAILED');
  const denseBefore = await tw.adapters.vectors.countForDocument(documentId);

  const runId = await reset(
    tw.client,
    documentId,
    await eventAfterActivity(tw.client, ingestWorkflowId(documentId), 'vectorizing'),
  );
  const result = await tw.client.workflow.getHandle(ingestWorkflowId(documentId), runId).result();
  expect(result).toMatchObject({ status: 'SUCCESS', taskId });

  const after = await snapshot(documentId);
  expect(after.counts).toMatchObject({ active: 15, dense: 15, sparse: 15, keyword: 15 });
  expect(after.vectors).toEqual({ dense: 15, sparse: 15 });
  expect(denseBefore.dense).toBe(15);
  expect(after.entries).toBe(15);
  expect(executions.get(`${documentId}:VECTORIZING`)).toBe(1);
  const pipeline = await getPipeline(tw.adapters.db, taskId);
  expect(pipeline).toMatchObject({
    pipeline_status: 'SUCCESS',
    failure_code: null,
    failed_stage: null,
    keyword_indexing_status: 'SUCCESS',
  });
  expect((await findDocument(tw.adapters.db, documentId))?.last_task_id).toBe(taskId);
});

import { randomUUID } from 'node:crypto';
import { retryDocument, RetryRefusedError } from '../../client/documentAdmin';
import { STAGE_DEFAULT_FAILURE } from '../../contracts/failureCodes';
import { STAGES, type Stage } from '../../contracts/stages';
import { countChunks } from '../../db/repositories/chunks';
import { getPipeline, stageStatusesOf } from '../../db/repositories/pipelines';
import { stageColumns } from '../../db/repositories/stageColumns';
import { injectStageFaults } from '../../testkit/harness/faultInjection';
import { ingestBuffer, sectionedMarkdown, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'retry' };
/** documentId → stage that fails once (before any work) with its default code. */
const failOnce = new Map<string, Stage>();
/** `${documentId}:${stage}` → how often the real stage ran. */
const executions = new Map<string, number>();
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({ wrapActivities: injectStageFaults(failOnce, executions) });
});
afterAll(() => tw.shutdown());

const admin = () => ({ client: tw.client, db: tw.adapters.db, config: tw.config });

describe.each(STAGES.map((s) => [s]))('a failure at %s', (stage) => {
  it('ends FAILED with that stage and code; a retry succeeds without re-running earlier stages', async () => {
    const content = sectionedMarkdown(12, `fail-${stage.toLowerCase()}`);
    const { documentId, taskId } = await ingestBuffer(tw, content, 'doc.md', scope, {
      beforeStart: (id) => failOnce.set(id, stage),
    });
    const failed = await waitTerminal(tw.client, documentId);
    expect(failed).toMatchObject({ status: 'FAILED', failureCode: STAGE_DEFAULT_FAILURE[stage] });
    const old = await getPipeline(tw.adapters.db, taskId);
    expect(old).toMatchObject({
      pipeline_status: 'FAILED',
      failed_stage: stage,
      recover_from_stage: stage,
      failure_code: STAGE_DEFAULT_FAILURE[stage],
    });

    const { taskId: newTaskId, via } = await retryDocument(admin(), documentId);
    expect(via).toBe('update');
    expect((await waitForTask(tw.client, documentId, newTaskId)).status).toBe('SUCCESS');

    const index = STAGES.indexOf(stage);
    for (const earlier of STAGES.slice(0, index)) expect(executions.get(`${documentId}:${earlier}`)).toBe(1);
    for (const later of STAGES.slice(index)) expect(executions.get(`${documentId}:${later}`)).toBe(1);
    const fresh = await getPipeline(tw.adapters.db, newTaskId);
    expect(fresh.pipeline_status).toBe('SUCCESS');
    const statuses = stageStatusesOf(fresh);
    for (const s of STAGES) expect(statuses[s]).toBe('SUCCESS');
    // Inherited stages keep the durations they took in the failed task.
    for (const earlier of STAGES.slice(0, index))
      expect(fresh[stageColumns(earlier).ms]).toBe(old[stageColumns(earlier).ms]);
    expect((await getPipeline(tw.adapters.db, taskId)).superseded_by_task_id).toBe(newTaskId);
    const counts = await countChunks(tw.adapters.db, documentId);
    expect(counts).toMatchObject({ active: 12, dense: 12, sparse: 12, keyword: 12 });
    expect(await tw.adapters.vectors.countForDocument(documentId)).toEqual({ dense: 12, sparse: 12 });
  });
});

it('20 concurrent retries: exactly one take-over, the others refused, the old row unchanged', async () => {
  const { documentId, taskId } = await ingestBuffer(tw, sectionedMarkdown(6, 'concurrent'), 'doc.md', scope, {
    beforeStart: (id) => failOnce.set(id, 'KEYWORD_INDEXING'),
  });
  expect((await waitTerminal(tw.client, documentId)).status).toBe('FAILED');
  const before = await getPipeline(tw.adapters.db, taskId);

  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => retryDocument(admin(), documentId)));
  const accepted = outcomes.filter((o) => o.status === 'fulfilled');
  const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  expect(accepted).toHaveLength(1);
  expect(refused).toHaveLength(19);
  for (const r of refused) {
    expect(r.reason).toBeInstanceOf(RetryRefusedError);
    expect((r.reason as Error).message).toMatch(/^RETRY_VALIDATION_FAILED:/);
  }
  const newTaskId = (accepted[0] as PromiseFulfilledResult<{ taskId: string }>).value.taskId;
  expect((await waitForTask(tw.client, documentId, newTaskId)).status).toBe('SUCCESS');

  const takeOvers = await tw.adapters.db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('retry_of_task_id', '=', taskId)
    .execute();
  expect(takeOvers.map((t) => t.task_id)).toEqual([newTaskId]);
  const after = await getPipeline(tw.adapters.db, taskId);
  const { superseded_by_task_id: supersededBy, updated_at: _u1, ...afterRest } = after;
  const { superseded_by_task_id: _none, updated_at: _u2, ...beforeRest } = before;
  expect(supersededBy).toBe(newTaskId);
  expect(afterRest).toEqual(beforeRest);
});

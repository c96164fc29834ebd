import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import type { ChunkingPlan, PlannedChunking, PlanReviewMode } from '../../contracts/chunkingPlan';
import { ingestWorkflowId, type IngestInput, type PrepareResult, type StageInput } from '../../contracts/ingest';
import { chunkingPlanQuery, confirmPlanUpdate } from '../../contracts/ingestApi';
import { allPending, STAGES, type Stage } from '../../contracts/stages';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { HISTORIES_DIR, historyToJson } from '../replay/histories';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { startStubWorkers, type StubWorkers } from '../../testkit/harness/stubWorkers';

// The plan step on the real dev server with stubbed activities: the durable wait between CLEANING
// and CHUNKING, the query, confirmPlan with a change, its validator, and the auto-confirm timeout.

const PROPOSED: ChunkingPlan = {
  strategy: 'qa',
  parameters: { childTokens: 512, overlapTokens: 0, parentTokens: null },
  reason: 'FAQ-shaped: 12 questions among 14 headings',
};

interface Script {
  calls: string[];
  review: PlanReviewMode;
  autoConfirmAfter: string | null;
  confirmed: { plan: ChunkingPlan; confirmedBy: string | null }[];
  waitingNotices: number;
}
const scripts = new Map<string, Script>();
const scriptOf = (documentId: string): Script => scripts.get(documentId)!;

function stubActivities(): Partial<IngestActivities> {
  const stage = (name: Stage) => async (input: StageInput) => {
    scriptOf(input.documentId).calls.push(name);
    return { stage: name, skipped: false, items: 3 };
  };
  const stages = Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)]));
  return {
    ...stages,
    async prepareTask(input: PrepareInput): Promise<PrepareResult> {
      return { kind: 'run', taskId: input.taskId, stages: allPending(), inherited: [], chunkCount: 0 };
    },
    async planChunking(input: StageInput): Promise<PlannedChunking> {
      const script = scriptOf(input.documentId);
      script.calls.push('plan');
      return {
        state: script.review === 'required' ? 'WAIT_CONFIRM' : 'CONFIRMED',
        plan: PROPOSED,
        recommended: PROPOSED,
        review: script.review,
        autoConfirmAfter: script.autoConfirmAfter,
        preview: [
          { chunkIndex: 1, kind: 'child', sectionPath: ['FAQ', 'Why?'], text: 'Why?\n\nBecause.', tokenCount: 4 },
        ],
        chunkCount: 2,
      };
    },
    async confirmChunkingPlan(confirmation: { taskId: string; plan: ChunkingPlan; confirmedBy: string | null }) {
      scriptOf(confirmation.taskId.split('|')[0]!).confirmed.push(confirmation);
    },
    async notifyPlanWaiting(waiting: { documentId: string }) {
      scriptOf(waiting.documentId).waitingNotices++;
    },
    async notifyResult() {},
  } as Partial<IngestActivities>;
}

let stubWorkers: StubWorkers;
let client: Client;
const taskQueue = `wf-plan-${randomUUID()}`;

beforeAll(async () => {
  stubWorkers = await startStubWorkers(taskQueue, stubActivities());
  client = stubWorkers.client;
});

afterAll(() => stubWorkers.close());

async function start(review: PlanReviewMode, autoConfirmAfter: string | null = null) {
  const documentId = randomUUID();
  const script: Script = { calls: [], review, autoConfirmAfter, confirmed: [], waitingNotices: 0 };
  scripts.set(documentId, script);
  const input: IngestInput = {
    documentId,
    userId: 'u',
    datasetId: 'ds',
    taskId: `${documentId}|first`,
    retryWait: '1 hour',
  };
  const handle = await client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [input],
  });
  return { handle, script };
}

async function waitForPlan(handle: WorkflowHandle<typeof ingestDocument>): Promise<PlannedChunking> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const planned = await handle.query(chunkingPlanQuery);
    if (planned) return planned;
    if (Date.now() > deadline) throw new Error('no plan was proposed in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function pipelineStatus(handle: WorkflowHandle<typeof ingestDocument>): Promise<unknown> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = (await handle.describe()).typedSearchAttributes
      .getAll()
      .find((p) => p.key.name === 'PipelineStatus')?.value;
    if (status === 'AWAITING_CONFIRMATION' || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const refusal = (error: unknown): string => {
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  const cause = (error as WorkflowUpdateFailedError).cause as { type?: string; message: string };
  expect(cause.type).toBe('PLAN_VALIDATION_FAILED');
  return cause.message;
};

it('required: waits after CLEANING, shows the plan and its preview, and chunks with the changed plan once confirmed', async () => {
  const { handle, script } = await start('required');
  const planned = await waitForPlan(handle);
  expect(planned).toMatchObject({ state: 'WAIT_CONFIRM', plan: PROPOSED, chunkCount: 2 });
  expect(planned.preview[0]!.text).toBe('Why?\n\nBecause.');
  expect(await pipelineStatus(handle)).toBe('AWAITING_CONFIRMATION');
  expect(script.calls).toEqual(['CLEANING', 'plan']);
  expect(script.waitingNotices).toBe(1);

  const confirmed = await handle.executeUpdate(confirmPlanUpdate, {
    args: [{ strategy: 'table', parameters: { childTokens: 200 }, confirmedBy: 'alice' }],
  });
  expect(confirmed).toEqual({
    strategy: 'table',
    parameters: { childTokens: 200, overlapTokens: 0, parentTokens: null },
    reason: `reviewer alice chose table instead of qa (recommended: ${PROPOSED.reason})`,
  });
  const result = await handle.result();
  expect(result.status).toBe('SUCCESS');
  expect(script.calls).toEqual(['CLEANING', 'plan', ...STAGES.slice(1)]);
  expect(script.confirmed).toEqual([{ taskId: expect.any(String), plan: confirmed, confirmedBy: 'alice' }]);
  expect((await handle.query(chunkingPlanQuery))?.state).toBe('EXECUTED');
  // `SLUICE_RECORD_REPLAY=1` saves this run as the replay history of the plan path (test/replay).
  if (process.env.SLUICE_RECORD_REPLAY === '1')
    await fs.writeFile(path.join(HISTORIES_DIR, 'plan-confirmed.json'), historyToJson(await handle.fetchHistory()));
  expect(
    (await handle.describe()).typedSearchAttributes.getAll().find((p) => p.key.name === 'PipelineStatus')?.value,
  ).toBe('SUCCESS');
});

it('the validator refuses a bad strategy, bad parameters and a second confirmation, and the run goes on', async () => {
  const { handle, script } = await start('required');
  await waitForPlan(handle);
  const bogus = await handle
    .executeUpdate(confirmPlanUpdate, { args: [{ strategy: 'bogus' as never }] })
    .catch((e: unknown) => e);
  expect(refusal(bogus)).toContain('unknown strategy bogus');
  const overlap = await handle
    .executeUpdate(confirmPlanUpdate, { args: [{ parameters: { overlapTokens: 400 } }] })
    .catch((e: unknown) => e);
  expect(refusal(overlap)).toContain('overlapTokens');
  // Nothing unnamed or unbounded reaches history or the plan's row.
  const extra = await handle
    .executeUpdate(confirmPlanUpdate, { args: [{ note: 'x'.repeat(300_000) } as never] })
    .catch((e: unknown) => e);
  expect(refusal(extra)).toContain('unknown field "note"');
  const long = await handle
    .executeUpdate(confirmPlanUpdate, { args: [{ confirmedBy: 'r'.repeat(300_000) }] })
    .catch((e: unknown) => e);
  expect(refusal(long)).toContain('confirmedBy must be 1 to 200 characters');
  const nested = await handle
    .executeUpdate(confirmPlanUpdate, { args: [{ parameters: { childTokens: 256, extra: 1 } as never }] })
    .catch((e: unknown) => e);
  expect(refusal(nested)).toContain('unknown parameter "extra"');
  expect(script.confirmed).toEqual([]);
  expect(await handle.executeUpdate(confirmPlanUpdate, { args: [{}] })).toEqual(PROPOSED);
  const again = await handle.executeUpdate(confirmPlanUpdate, { args: [{}] }).catch((e: unknown) => e);
  expect(refusal(again)).toContain('only a waiting plan can be confirmed');
  expect((await handle.result()).status).toBe('SUCCESS');
  expect(script.confirmed).toEqual([{ taskId: expect.any(String), plan: PROPOSED, confirmedBy: null }]);
});

it('required with an auto-confirm timeout: the plan is confirmed as proposed when nobody answers', async () => {
  const { handle, script } = await start('required', '1s');
  expect((await handle.result()).status).toBe('SUCCESS');
  expect(script.confirmed).toEqual([{ taskId: expect.any(String), plan: PROPOSED, confirmedBy: 'auto-confirm' }]);
  expect(script.waitingNotices).toBe(1);
});

it('auto: no wait, no notice, nothing to confirm', async () => {
  const { handle, script } = await start('auto');
  expect((await handle.result()).status).toBe('SUCCESS');
  expect(script.calls).toEqual(['CLEANING', 'plan', ...STAGES.slice(1)]);
  expect(script.waitingNotices).toBe(0);
  expect(script.confirmed).toEqual([]);
});

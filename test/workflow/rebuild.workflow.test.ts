import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import { DEFAULT_CHUNKING_PARAMETERS, type PlannedChunking } from '../../contracts/chunkingPlan';
import { ingestWorkflowId, type IngestInput, type PrepareResult, type StageInput } from '../../contracts/ingest';
import { progressQuery } from '../../contracts/ingestApi';
import {
  rebuildDatasetWorkflowId,
  type RebuildCandidate,
  type RebuildDatasetInput,
  type RebuildSettlement,
} from '../../contracts/rebuild';
import { allPending, STAGES, type Stage } from '../../contracts/stages';
import type { ingestDocument } from '../../workflows/ingestDocument';
import type { rebuildDataset } from '../../workflows/rebuildDataset';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { scheduledActivityTypes } from '../../testkit/harness/historyEvents';
import { startStubWorkers, type StubWorkers } from '../../testkit/harness/stubWorkers';

// The rebuild paths of the workflows on the real dev server, with stubbed activities: a rebuild
// run skips CLEANING and ends by retiring the old chunk set (only when it succeeded), and a
// dataset rebuild keeps at most maxOpen document runs between start and settlement.

const calls = new Map<string, string[]>();
const failAt = new Map<string, Stage>();
const callsOf = (documentId: string) => calls.get(documentId) ?? calls.set(documentId, []).get(documentId)!;
let settling = 0;
let mostSettling = 0;
const candidates: RebuildCandidate[] = [];

function stubActivities(): Partial<IngestActivities> {
  const stage = (name: Stage) => async (input: StageInput) => {
    callsOf(input.documentId).push(name);
    if (failAt.get(input.documentId) === name)
      throw ApplicationFailure.create({ type: 'VECTORIZING_FAILED', message: 'stubbed failure', nonRetryable: true });
    return { stage: name, skipped: false, items: 3 };
  };
  const stages = Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)]));
  return {
    ...(stages as Partial<IngestActivities>),
    async prepareTask(input: PrepareInput): Promise<PrepareResult> {
      const stages = allPending();
      // What the real take-over answers for a rebuild: the parse inherited, a new chunk set to switch to.
      if (input.rebuildOfTaskId) stages.CLEANING = 'SUCCESS';
      return {
        kind: 'run',
        taskId: input.taskId,
        stages,
        inherited: input.rebuildOfTaskId ? ['CLEANING'] : [],
        chunkCount: 0,
        ...(input.rebuildOfTaskId ? { switchesIndex: true } : {}),
      };
    },
    // The plan step stores a rebuild's plan confirmed (activities/stages/chunkingPlan.ts): no wait.
    async planChunking(): Promise<PlannedChunking> {
      const plan = { strategy: 'general' as const, parameters: DEFAULT_CHUNKING_PARAMETERS, reason: 'stub' };
      return {
        state: 'CONFIRMED',
        plan,
        recommended: plan,
        review: 'auto',
        autoConfirmAfter: null,
        preview: [],
        chunkCount: 3,
      };
    },
    async retireChunkSets(input: StageInput) {
      callsOf(input.documentId).push('retire');
      return 3;
    },
    async recordTaskFailure() {},
    async notifyResult() {},
    async recordNotifyFailure() {},
    async listRebuildPage(input: { afterDocumentId?: string; limit: number }) {
      const after = input.afterDocumentId;
      const page = candidates.filter((c) => after === undefined || c.documentId > after).slice(0, input.limit);
      return { candidates: page, skipped: 0, lastDocumentId: page.at(-1)?.documentId ?? null };
    },
    async awaitRebuildSettled(input: { documentId: string }): Promise<RebuildSettlement> {
      settling += 1;
      mostSettling = Math.max(mostSettling, settling);
      // Long enough that every slot the window allows is taken before the first one frees.
      await new Promise((resolve) => setTimeout(resolve, 400));
      settling -= 1;
      return failAt.has(input.documentId) ? 'FAILED' : 'SUCCESS';
    },
  };
}

let stubWorkers: StubWorkers;
let client: Client;
const taskQueue = `wf-rebuild-${randomUUID()}`;

beforeAll(async () => {
  stubWorkers = await startStubWorkers(taskQueue, stubActivities());
  client = stubWorkers.client;
});

afterAll(() => stubWorkers.close());

function rebuildInput(documentId: string): IngestInput {
  return {
    documentId,
    userId: 'u',
    datasetId: 'ds',
    taskId: randomUUID(),
    rebuildOfTaskId: randomUUID(),
    chunkingPlan: {
      strategy: 'general',
      parameters: { childTokens: 120, overlapTokens: 20, parentTokens: null },
      reason: 'test',
    },
    retryWait: '1 hour',
  };
}

it('a rebuild run re-chunks without parsing, and retires the old chunk set after it succeeds', async () => {
  const documentId = randomUUID();
  const handle = await client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [rebuildInput(documentId)],
  });
  expect((await handle.result()).status).toBe('SUCCESS');
  expect(callsOf(documentId)).toEqual([...STAGES.filter((s) => s !== 'CLEANING'), 'retire']);
}, 300_000);

it('a rebuild run schedules retireChunkSets as a normal activity, with no patch marker in its history', async () => {
  const documentId = randomUUID();
  const handle = await client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [rebuildInput(documentId)],
  });
  await handle.result();
  const { events } = await handle.fetchHistory();
  expect(scheduledActivityTypes(events ?? [])).toContain('retireChunkSets');
  const markers = (events ?? []).map((e) => e.markerRecordedEventAttributes?.markerName).filter(Boolean);
  expect(markers).not.toContain('core_patch');
});

it('a failed rebuild keeps the old chunk set: nothing is retired, and the run waits for a retry', async () => {
  const documentId = randomUUID();
  failAt.set(documentId, 'VECTORIZING');
  const handle = await client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [rebuildInput(documentId)],
  });
  const deadline = Date.now() + 20_000;
  while (!(await handle.query(progressQuery)).waitingForRetry) {
    if (Date.now() > deadline) throw new Error('the failed rebuild never waited for a retry');
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(callsOf(documentId)).toEqual(['CHUNKING', 'VECTORIZING']);
  await handle.terminate('test done');
}, 300_000);

it('a dataset rebuild keeps at most maxOpen document runs open, and counts how each settled', async () => {
  const datasetId = `ds-${randomUUID()}`;
  const ids = Array.from({ length: 5 }, () => randomUUID()).sort();
  candidates.push(...ids.map((documentId) => ({ documentId, lastTaskId: randomUUID() })));
  failAt.set(ids[4]!, 'VECTORIZING');
  const input: RebuildDatasetInput = { userId: 'u', datasetId, maxOpen: 2, retryWait: '1 hour' };
  const counts = await client.workflow.execute<typeof rebuildDataset>('rebuildDataset', {
    workflowId: rebuildDatasetWorkflowId({ userId: 'u', datasetId }),
    taskQueue,
    args: [input],
  });
  expect(counts).toEqual({ started: 5, succeeded: 4, failed: 1, skipped: 0 });
  expect(mostSettling).toBe(2);
  for (const id of ids.slice(0, 4)) expect(callsOf(id)).toContain('retire');
  // The failed run is an abandoned child: it outlived the dataset rebuild, waiting for its retry.
  await client.workflow.getHandle(ingestWorkflowId(ids[4]!)).terminate('test done');
  // Five children, two at a time, each a few workflow tasks: minutes on a loaded 2-core machine.
}, 300_000);

import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { pendingStages, type PendingStage } from '../../client/pendingStage';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import { connectNative } from '../../worker/temporalConnection';
import { autoPlanChunking } from '../../testkit/fakes/autoPlanStub';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import type { TaskFailure } from '../../activities/stages/recordTaskFailure';
import {
  ingestWorkflowId,
  type IngestInput,
  type IngestProgress,
  type IngestResult,
  type LocalStagePlan,
  type PrepareResult,
  type StageInput,
} from '../../contracts/ingest';
import { progressQuery, retrySignal } from '../../contracts/ingestApi';
import { allPending, STAGES, type Stage, type StageStatuses } from '../../contracts/stages';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { localActivityTypes, scheduledActivityTypes } from '../../testkit/harness/historyEvents';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { WORKFLOW_BUNDLE_PATH } from '../../testkit/harness/testConfig';
import { waitingReporter } from '../../worker/waitingReporter';

// Workflow logic on the real dev server, with stubbed activities: ordering, skipping,
// failure recording, retry as continue-as-new. The real activities are tested end to end.

interface Script {
  calls: string[];
  prepares: PrepareInput[];
  failures: TaskFailure[];
  notified: IngestResult[];
  inherited: (input: PrepareInput) => Stage[];
  failAt: (stage: Stage, input: StageInput) => Error | null;
  /** What prepareTask answers about local stages (absent, as from a run prepared before they existed). */
  localStages?: LocalStagePlan;
  /** Chunks CHUNKING reports. */
  chunks: number;
  /** Deliveries that fail before one succeeds. */
  notifyFailures: number;
  /** What prepareTask answers as the run's outage budget (absent, as from a run prepared before it existed). */
  outageBudgetMs?: number;
  /** What prepareTask answers as the tenant's priority (absent: fairness off, or a run prepared before it). */
  priority?: { fairnessKey: string; fairnessWeight?: number };
}

const scripts = new Map<string, Script>();
const scriptOf = (documentId: string): Script => {
  const script = scripts.get(documentId);
  if (!script) throw new Error(`no script for ${documentId}`);
  return script;
};

function stubActivities(): Partial<IngestActivities> {
  const stage = (name: Stage) => async (input: StageInput) => {
    const script = scriptOf(input.documentId);
    script.calls.push(`${name}:${input.taskId}`);
    const error = script.failAt(name, input);
    if (error) throw error;
    return { stage: name, skipped: false, items: name === 'CHUNKING' ? script.chunks : 1 };
  };
  const stages = Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)])) as unknown as Pick<
    IngestActivities,
    'cleaning' | 'chunking' | 'vectorizing' | 'pretokenize' | 'keywordIndexing' | 'sparseVectorizing'
  >;
  return {
    ...stages,
    async prepareTask(input: PrepareInput): Promise<PrepareResult> {
      const script = scriptOf(input.documentId);
      script.prepares.push(input);
      const statuses: StageStatuses = allPending();
      const inherited = script.inherited(input);
      for (const s of inherited) statuses[s] = 'SUCCESS';
      return {
        kind: 'run',
        taskId: input.taskId,
        stages: statuses,
        inherited,
        chunkCount: 0,
        ...(script.localStages ? { localStages: script.localStages } : {}),
        ...(script.outageBudgetMs ? { outageBudgetMs: script.outageBudgetMs } : {}),
        ...(script.priority ? { priority: script.priority } : {}),
      };
    },
    // Review mode auto: the plan is confirmed as it is proposed (chunkingPlan.workflow.test.ts has the wait).
    planChunking: autoPlanChunking,
    async recordTaskFailure(failure: TaskFailure) {
      scriptOf(failure.taskId.split('|')[0] ?? '').failures.push(failure);
    },
    async notifyResult(result: IngestResult) {
      const script = scriptOf(result.documentId);
      if (script.notifyFailures-- > 0) throw new Error('receiver down');
      script.notified.push(result);
    },
    async recordNotifyFailure() {
      throw new Error('notification never fails in these tests');
    },
  };
}

let workers: Worker[];
let running: Promise<void[]>;
let nativeConnection: NativeConnection;
let client: Client;
const taskQueue = `wf-logic-${randomUUID()}`;

beforeAll(async () => {
  installQuietRuntime();
  nativeConnection = await connectNative(loadConfig().temporal.connection);
  client = new Client({
    connection: await connectTemporal(loadConfig().temporal.connection),
  });
  const stubs = stubActivities();
  // The worker's own interceptor: a failed, retried attempt tells its run what it waits for.
  const interceptors = {
    activity: [waitingReporter(client, (port) => (port === 5999 ? 'the parsing service' : null))],
  };
  workers = [
    await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities: stubs,
      interceptors,
    }),
    // VECTORIZING goes to the embedding queue next to the run's own, as in production.
    await Worker.create({
      connection: nativeConnection,
      taskQueue: embeddingTaskQueue(taskQueue),
      activities: { vectorizing: stubs.vectorizing },
      interceptors,
    }),
  ];
  running = Promise.all(workers.map((w) => w.run()));
});

afterAll(async () => {
  for (const w of workers) w.shutdown();
  await running;
  await nativeConnection.close();
  await client.connection.close();
});

function start(script: Partial<Script>): {
  documentId: string;
  handle: Promise<WorkflowHandle<typeof ingestDocument>>;
  script: Script;
} {
  const documentId = randomUUID();
  const full: Script = {
    calls: [],
    prepares: [],
    failures: [],
    notified: [],
    inherited: () => [],
    failAt: () => null,
    chunks: 7,
    notifyFailures: 0,
    ...script,
  };
  scripts.set(documentId, full);
  // Task ids carry the document id so the failure stub can find the script.
  const input: IngestInput = {
    documentId,
    userId: 'u',
    datasetId: 'ds',
    taskId: `${documentId}|first`,
    retryWait: '1 hour',
  };
  const handle = client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [input],
  });
  return { documentId, handle, script: full };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('runs the six stages in order, once each, and notifies once', async () => {
  const { handle, script } = start({});
  const result = await (await handle).result();
  expect(result.status).toBe('SUCCESS');
  expect(result.chunkCount).toBe(7);
  expect(script.calls.map((c) => c.split(':')[0])).toEqual([...STAGES]);
  expect(script.notified).toHaveLength(1);
  expect(script.prepares[0]?.ownerRunChain).toBeTruthy();
});

it('retries a transient stage failure for the outage budget, not for a count of attempts', async () => {
  // Three DEPENDENCY_UNAVAILABLE failures: CLEANING used to give up after 3 attempts.
  let failures = 0;
  const budget = 90 * 60_000;
  const { documentId, handle, script } = start({
    outageBudgetMs: budget,
    failAt: (stage) =>
      stage === 'CLEANING' && failures++ < 3
        ? ApplicationFailure.create({ type: 'DEPENDENCY_UNAVAILABLE', message: 'postgres restarting' })
        : null,
  });
  const run = await handle;
  // While it waits, the server's view of the run says so: which attempt, after which failure.
  let waiting: PendingStage | undefined;
  await waitUntil(async () => {
    waiting = (await pendingStages(client, documentId)).find((p) => p.attempt >= 2);
    return waiting !== undefined;
  });
  expect(waiting).toMatchObject({
    activity: 'cleaning',
    lastFailure: { code: 'DEPENDENCY_UNAVAILABLE', message: 'postgres restarting' },
  });
  expect(waiting?.givesUpAt?.getTime()).toBeGreaterThan(Date.now() + budget - 60_000);
  expect((await run.result()).status).toBe('SUCCESS');
  expect(script.calls.filter((c) => c.startsWith('CLEANING:'))).toHaveLength(4);
  const { events } = await run.fetchHistory();
  const cleaning = (events ?? []).find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'cleaning',
  )?.activityTaskScheduledEventAttributes;
  expect(cleaning?.retryPolicy?.maximumAttempts ?? 0).toBe(0);
  const seconds = Number(cleaning?.scheduleToCloseTimeout?.seconds ?? 0);
  expect(seconds).toBe(4 * 3600 + budget / 1000);
}, 60_000);

it('says what a retried stage waits for, since when and at which attempt, and counts it in WaitingFor', async () => {
  let failures = 0;
  const { documentId, handle, script } = start({
    failAt: (stage) => {
      if (stage === 'VECTORIZING' && failures < 3) {
        failures += 1;
        // What toApplicationFailure makes of a pg error: the server named in its first detail.
        return ApplicationFailure.create({
          type: 'DEPENDENCY_UNAVAILABLE',
          message: 'Postgres did not answer; the attempt is retried',
          details: [{ server: 'Postgres', port: null }],
        });
      }
      if (stage === 'KEYWORD_INDEXING' && failures < 4) {
        failures += 1;
        // A socket error names only its port: the worker names the server from its configuration.
        return ApplicationFailure.create({ type: 'DEPENDENCY_UNAVAILABLE', details: [{ server: null, port: 5999 }] });
      }
      return null;
    },
  });
  const run = await handle;
  const query = `WaitingFor = 'Postgres' AND DocumentId = '${documentId}'`;
  let seen: IngestProgress['waiting'] = null;
  await waitUntil(async () => {
    seen = (await run.query(progressQuery)).waiting ?? null;
    return seen !== null && seen.attempt >= 3;
  });
  expect(seen).toMatchObject({ for: 'Postgres', code: 'DEPENDENCY_UNAVAILABLE', stage: 'VECTORIZING' });
  const since = Date.parse((seen as unknown as { since: string }).since);
  // `since` is the first failure's: it holds across the stage's further failed attempts.
  expect(since).toBeLessThan(Date.now() - 1500);
  await waitUntil(async () => (await client.workflow.count(query)).count === 1);
  // What the Web UI shows on the run's page: its current details.
  const metadata = await run.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  expect(metadata.currentDetails).toMatch(
    /^\*\*Waiting for Postgres\*\* since \d\d:\d\d:\d\d UTC, attempt \d+ \(VECTORIZING\)/,
  );
  await waitUntil(async () => (await run.query(progressQuery)).waiting?.for === 'the parsing service', 30_000);
  expect((await run.result()).status).toBe('SUCCESS');
  expect((await run.query(progressQuery)).waiting).toBeNull();
  await waitUntil(
    async () => (await client.workflow.count(`WaitingFor IS NOT NULL AND DocumentId = '${documentId}'`)).count === 0,
  );
  expect(script.failures).toHaveLength(0);
}, 90_000);

it("puts the tenant's fairness key and weight on every stage's task, on every queue", async () => {
  const { handle } = start({ priority: { fairnessKey: 'tenant-a', fairnessWeight: 3 } });
  const run = await handle;
  expect((await run.result()).status).toBe('SUCCESS');
  const { events } = await run.fetchHistory();
  const scheduled = (events ?? []).flatMap((e) =>
    e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : [],
  );
  // The six stages (bookkeeping such as the plan step inherits the run's own priority, set at its start).
  const stageTypes = new Set<string>(Object.values(STAGE_ACTIVITY));
  const stages = scheduled.filter((a) => stageTypes.has(a.activityType?.name ?? ''));
  expect(stages.map((a) => a.activityType?.name)).toEqual(
    expect.arrayContaining(['cleaning', 'vectorizing', 'sparseVectorizing']),
  );
  for (const a of stages) expect(a.priority).toMatchObject({ fairnessKey: 'tenant-a', fairnessWeight: 3 });
});

it('skips inherited stages but still runs the last one so the pipeline can succeed', async () => {
  const { handle, script } = start({ inherited: () => ['CLEANING', 'CHUNKING', 'SPARSE_VECTORIZING'] });
  expect((await (await handle).result()).status).toBe('SUCCESS');
  expect(script.calls.map((c) => c.split(':')[0])).toEqual([
    'VECTORIZING',
    'PRETOKENIZE',
    'KEYWORD_INDEXING',
    'SPARSE_VECTORIZING',
  ]);
});

it('records a classified failure once, waits for retry, and continues as new as a take-over', async () => {
  let failed = false;
  const { handle, script, documentId } = start({
    failAt: (stage) => {
      if (stage !== 'VECTORIZING' || failed) return null;
      failed = true;
      return ApplicationFailure.create({
        type: 'EMBEDDING_DIMENSION_UNSUPPORTED',
        message: 'model returned 3 dims',
        nonRetryable: true,
      });
    },
    // The retry run inherits what the first run finished.
    inherited: (input) => (input.retryOfTaskId ? ['CLEANING', 'CHUNKING'] : []),
  });
  const h = await handle;
  await waitUntil(async () => (await h.query(progressQuery)).waitingForRetry);
  const progress = await h.query(progressQuery);
  expect(progress.status).toBe('FAILED');
  expect(progress.failureCode).toBe('EMBEDDING_DIMENSION_UNSUPPORTED');
  expect(progress.stages.VECTORIZING).toBe('FAILED');
  expect(script.failures).toEqual([
    {
      taskId: `${documentId}|first`,
      stage: 'VECTORIZING',
      code: 'EMBEDDING_DIMENSION_UNSUPPORTED',
      message: 'model returned 3 dims',
    },
  ]);
  expect(script.notified.map((n) => n.status)).toEqual(['FAILED']);

  await h.signal(retrySignal);
  const result = await client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId)).result();
  expect(result.status).toBe('SUCCESS');
  const retry = script.prepares[1];
  expect(retry?.retryOfTaskId).toBe(`${documentId}|first`);
  expect(retry?.taskId).not.toBe(`${documentId}|first`);
  // Stages inherited by the retry are not executed again.
  const retried = script.calls.filter((c) => c.endsWith(`:${retry?.taskId}`)).map((c) => c.split(':')[0]);
  expect(retried).toEqual(['VECTORIZING', 'PRETOKENIZE', 'KEYWORD_INDEXING', 'SPARSE_VECTORIZING']);
  expect(script.notified.map((n) => n.status)).toEqual(['FAILED', 'SUCCESS']);
});

it('classifies an error with no known code as INTERNAL_UNKNOWN_ERROR, keeping its message', async () => {
  const { handle, script } = start({
    failAt: (stage) =>
      stage === 'PRETOKENIZE'
        ? ApplicationFailure.create({ type: 'TypeError', message: 'x is undefined', nonRetryable: true })
        : null,
  });
  const h = await handle;
  await waitUntil(async () => (await h.query(progressQuery)).waitingForRetry);
  expect(script.failures[0]).toMatchObject({
    stage: 'PRETOKENIZE',
    code: 'INTERNAL_UNKNOWN_ERROR',
    message: 'x is undefined',
  });
  await h.terminate('test done');
});

describe('where stages run', () => {
  const history = async (documentId: string) =>
    (await client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory()).events ?? [];
  const small: LocalStagePlan = { beforeEmbedding: true, maxChunksAfterEmbedding: 500 };

  it('runs a small document in the worker: only VECTORIZING is an activity task on the server', async () => {
    const { handle, script, documentId } = start({ localStages: small });
    expect((await (await handle).result()).status).toBe('SUCCESS');
    expect(script.calls.map((c) => c.split(':')[0])).toEqual([...STAGES]);
    const events = await history(documentId);
    expect(scheduledActivityTypes(events)).toEqual(['vectorizing']);
    expect(localActivityTypes(events)).toEqual([
      'prepareTask',
      'cleaning',
      'planChunking',
      'chunking',
      'pretokenize',
      'keywordIndexing',
      'sparseVectorizing',
      'notifyResult',
    ]);
  });

  it('keeps normal activities for a large source, and after embedding for more chunks than the plan allows', async () => {
    const { handle, documentId } = start({
      localStages: { beforeEmbedding: false, maxChunksAfterEmbedding: 500 },
      chunks: 501,
    });
    expect((await (await handle).result()).status).toBe('SUCCESS');
    const events = await history(documentId);
    expect(scheduledActivityTypes(events)).toEqual([
      'cleaning',
      'planChunking',
      'chunking',
      'vectorizing',
      'pretokenize',
      'keywordIndexing',
      'sparseVectorizing',
    ]);
  });

  it('runs every stage as a normal activity when prepareTask gives no plan', async () => {
    const { handle, documentId } = start({});
    expect((await (await handle).result()).status).toBe('SUCCESS');
    expect(scheduledActivityTypes(await history(documentId))).toEqual([
      'cleaning',
      'planChunking',
      'chunking',
      'vectorizing',
      'pretokenize',
      'keywordIndexing',
      'sparseVectorizing',
    ]);
  });

  it('hands a notification whose quick local try failed to a normal activity, which delivers it once', async () => {
    const { handle, script, documentId } = start({ localStages: small, notifyFailures: 2 });
    expect((await (await handle).result()).status).toBe('SUCCESS');
    expect(script.notified.map((n) => n.status)).toEqual(['SUCCESS']);
    const events = await history(documentId);
    expect(scheduledActivityTypes(events)).toEqual(['vectorizing', 'notifyResult']);
    expect(localActivityTypes(events)).toContain('notifyResult');
  });
});

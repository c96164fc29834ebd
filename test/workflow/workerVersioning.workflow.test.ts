import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { Client, type WorkflowHandle, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { type NativeConnection, Worker } from '@temporalio/worker';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import type { TemporalConfig } from '../../config/temporalConnectionConfig';
import { ingestWorkflowId, type IngestInput, type PrepareResult, type StageInput } from '../../contracts/ingest';
import { progressQuery, retrySignal } from '../../contracts/ingestApi';
import { allPending, STAGES, type Stage } from '../../contracts/stages';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import { deploymentOptions } from '../../worker/deploymentOptions';
import { connectNative } from '../../worker/temporalConnection';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { WORKFLOW_BUNDLE_PATH } from '../../testkit/harness/testConfig';
import { autoPlanChunking } from '../../testkit/fakes/autoPlanStub';

// A rollout with Worker Versioning on the real server (workflow logic, stubbed activities): the
// real worker deployment options (worker/deploymentOptions.ts) and the real workflow bundle, in
// two versions of one deployment, v1 and v2.

const config = loadConfig();
const deploymentName = `sluice-test-${randomUUID().slice(0, 8)}`;
const taskQueue = `wf-versioning-${randomUUID()}`;
const temporalOf = (buildId: string): TemporalConfig => ({
  ...config.temporal,
  deployment: { name: deploymentName, buildId },
});

/** Each activity call, with the build id of the worker that ran it. */
const calls: { documentId: string; taskId: string; what: string; buildId: string }[] = [];
let failFirstCleaningOf = '';
let holdChunkingOf = '';
let releaseHeld = false;

function stubs(buildId: string): Partial<IngestActivities> {
  const stage = (name: Stage) => async (input: StageInput) => {
    calls.push({ documentId: input.documentId, taskId: input.taskId, what: name, buildId });
    if (name === 'CLEANING' && input.documentId === failFirstCleaningOf && input.taskId.endsWith('|first')) {
      throw ApplicationFailure.create({ type: 'PARSE_ENGINE_FAILED', message: 'v1 cannot parse', nonRetryable: true });
    }
    // Held (heartbeating, as a real stage does) until the test has rolled v2 out.
    while (name === 'CHUNKING' && input.documentId === holdChunkingOf && !releaseHeld) {
      Context.current().heartbeat();
      await Context.current().sleep(200);
    }
    return { stage: name, skipped: false, items: 1 };
  };
  const stages = Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)]));
  return {
    ...stages,
    async prepareTask(input: PrepareInput): Promise<PrepareResult> {
      return { kind: 'run', taskId: input.taskId, stages: allPending(), inherited: [], chunkCount: 0 };
    },
    planChunking: autoPlanChunking,
    async recordTaskFailure() {},
    async notifyResult() {},
  } as Partial<IngestActivities>;
}

let connection: NativeConnection;
let client: Client;
const running: { workers: Worker[]; done: Promise<void[]> }[] = [];

async function deploy(buildId: string): Promise<void> {
  const activities = stubs(buildId);
  const workers = [
    await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities,
      ...deploymentOptions(temporalOf(buildId)),
    }),
    await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: embeddingTaskQueue(taskQueue),
      activities: { vectorizing: activities.vectorizing },
      ...deploymentOptions(temporalOf(buildId)),
    }),
  ];
  running.push({ workers, done: Promise.all(workers.map((w) => w.run())) });
}

/** `temporal worker deployment set-current-version`, retried until the version's pollers are known. */
async function makeCurrent(buildId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: config.temporal.namespace,
        deploymentName,
        buildId,
        identity: 'workerVersioning.test',
      });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function buildIdOf(handle: WorkflowHandle): Promise<string | undefined> {
  const { raw } = await handle.describe();
  return raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(documentId: string): Promise<WorkflowHandleWithFirstExecutionRunId<typeof ingestDocument>> {
  const input: IngestInput = { documentId, userId: 'u', datasetId: 'ds', taskId: `${documentId}|first` };
  return client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [{ ...input, retryWait: '1 hour' }],
  });
}

beforeAll(async () => {
  installQuietRuntime();
  connection = await connectNative(config.temporal.connection);
  client = new Client({ connection: await connectTemporal(config.temporal.connection) });
});

afterAll(async () => {
  for (const { workers } of running) for (const w of workers) w.shutdown();
  await Promise.all(running.map((r) => r.done));
  await connection.close();
  await client.connection.close();
});

it('keeps running runs on v1, moves a retried FAILED run to v2, and the v1 histories replay', async () => {
  const failed = randomUUID();
  const inFlight = randomUUID();
  failFirstCleaningOf = failed;
  holdChunkingOf = inFlight;

  await deploy('v1');
  await makeCurrent('v1');
  const failedRun = await start(failed);
  const inFlightRun = await start(inFlight);
  await waitUntil(async () => (await failedRun.query(progressQuery)).waitingForRetry);
  await waitUntil(async () => calls.some((c) => c.documentId === inFlight && c.what === 'CHUNKING'));
  expect(await buildIdOf(failedRun)).toBe('v1');
  expect((await failedRun.describe()).raw.workflowExecutionInfo?.versioningInfo?.behavior).toBe(1); // PINNED

  await deploy('v2');
  await makeCurrent('v2');
  releaseHeld = true;

  // The admin's retry: the waiting run (on v1) continues as new, and the new run starts on v2.
  await failedRun.signal(retrySignal);
  const retried = client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(failed));
  expect((await retried.result()).status).toBe('SUCCESS');
  expect(await buildIdOf(retried)).toBe('v2');
  const retryCalls = calls.filter((c) => c.documentId === failed && !c.taskId.endsWith('|first'));
  expect(retryCalls.map((c) => c.what)).toEqual([...STAGES]);
  expect(new Set(retryCalls.map((c) => c.buildId))).toEqual(new Set(['v2']));

  // The run that was in flight when v2 became current finishes on v1, every stage of it.
  expect((await inFlightRun.result()).status).toBe('SUCCESS');
  expect(await buildIdOf(inFlightRun)).toBe('v1');
  const inFlightCalls = calls.filter((c) => c.documentId === inFlight);
  expect(inFlightCalls.map((c) => c.what)).toEqual([...STAGES]);
  expect(new Set(inFlightCalls.map((c) => c.buildId))).toEqual(new Set(['v1']));

  // The deploy gate: v1's recorded histories (the failed-then-retried chain's first run and the
  // in-flight run) replay without a non-determinism error on the code being deployed.
  const histories = [
    {
      workflowId: 'failed-v1',
      history: await client.workflow.getHandle(failedRun.workflowId, failedRun.firstExecutionRunId).fetchHistory(),
    },
    { workflowId: 'in-flight-v1', history: await inFlightRun.fetchHistory() },
  ];
  const errors: (Error | undefined)[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } },
    histories,
  )) {
    errors.push(result.error);
  }
  expect(errors).toEqual([undefined, undefined]);
});

import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Client } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import { connectNative } from '../../worker/temporalConnection';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import type { SourceRegistration } from '../../activities/stages/sourceRegistration';
import {
  ingestWorkflowId,
  type IngestInput,
  type IngestResult,
  type PrepareResult,
  type StageInput,
} from '../../contracts/ingest';
import { progressQuery, requestRetryUpdate } from '../../contracts/ingestApi';
import { allPending, STAGES, type Stage } from '../../contracts/stages';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { WORKFLOW_BUNDLE_PATH } from '../../testkit/harness/testConfig';
import { autoPlanChunking } from '../../testkit/fakes/autoPlanStub';

// A run started from a named source, as another SDK starts it: no documentId, taskId or
// retryWait in the input. Stubbed activities; the real prepareTask is in test/activity.

const prepares: PrepareInput[] = [];
const stageCalls: StageInput[] = [];
const notified: IngestResult[] = [];
/** Per document id: what prepareTask does on each call, in turn. */
const answers = new Map<string, Array<(input: PrepareInput) => PrepareResult>>();
const registrations: PrepareInput[] = [];
/** Per document id: what registerSource does on each call, in turn; registered when none is left. */
const registrationAnswers = new Map<string, Array<(input: PrepareInput) => SourceRegistration>>();

const run = (input: PrepareInput): PrepareResult => ({
  kind: 'run',
  taskId: input.taskId,
  stages: allPending(),
  inherited: [],
  chunkCount: 0,
});
const notFound = (): never => {
  throw ApplicationFailure.create({ type: 'SOURCE_FILE_NOT_FOUND', message: 'no object', nonRetryable: true });
};

function stubs(): Partial<IngestActivities> {
  const stage = (name: Stage) => async (input: StageInput) => {
    stageCalls.push(input);
    return { stage: name, skipped: false, items: 3 };
  };
  return {
    ...(Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)])) as object),
    async registerSource(input: PrepareInput) {
      registrations.push(input);
      const next = registrationAnswers.get(input.documentId)?.shift();
      return next ? next(input) : { kind: 'registered' as const };
    },
    async prepareTask(input: PrepareInput) {
      prepares.push(input);
      const next = answers.get(input.documentId)?.shift();
      if (!next) throw new Error(`no answer left for ${input.documentId}`);
      return next(input);
    },
    planChunking: autoPlanChunking,
    async notifyResult(result: IngestResult) {
      notified.push(result);
    },
    async recordTaskFailure() {
      throw new Error('no stage fails in these tests');
    },
  };
}

let workers: Worker[];
let running: Promise<void[]>;
let nativeConnection: NativeConnection;
let client: Client;
const taskQueue = `wf-source-${randomUUID()}`;

beforeAll(async () => {
  installQuietRuntime();
  nativeConnection = await connectNative(loadConfig().temporal.connection);
  const activities = stubs();
  workers = [
    await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities,
    }),
    await Worker.create({
      connection: nativeConnection,
      taskQueue: embeddingTaskQueue(taskQueue),
      activities: { vectorizing: activities.vectorizing },
    }),
  ];
  running = Promise.all(workers.map((w) => w.run()));
  client = new Client({
    connection: await connectTemporal(loadConfig().temporal.connection),
  });
});

afterAll(async () => {
  for (const w of workers) w.shutdown();
  await running;
  await nativeConnection.close();
  await client.connection.close();
});

function startFromSource(documentId: string) {
  const input: IngestInput = {
    source: { objectKey: `inbox/${documentId}.md` },
    fileName: 'a.md',
    userId: 'u',
    datasetId: 'ds',
  };
  return client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue,
    args: [input],
  });
}

it('takes the document id from the workflow id, fails unregistered without notifying, and a retry registers and runs', async () => {
  const documentId = randomUUID();
  registrationAnswers.set(documentId, [notFound]);
  answers.set(documentId, [run]);
  const handle = await startFromSource(documentId);
  let progress = await handle.query(progressQuery);
  for (let i = 0; i < 200 && !progress.waitingForRetry; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    progress = await handle.query(progressQuery);
  }
  expect(progress).toMatchObject({
    documentId,
    status: 'FAILED',
    failureCode: 'SOURCE_FILE_NOT_FOUND',
    waitingForRetry: true,
  });
  // Registration failed: prepareTask never ran for the first task.
  expect(prepares.filter((p) => p.documentId === documentId)).toHaveLength(0);
  const first = registrations.find((p) => p.documentId === documentId);
  // The run chain is the first task's id: stable across activity retries and resets.
  expect(first?.taskId).toBe(first?.ownerRunChain);
  expect(first?.retryWait).toBe('30d');

  const accepted = await handle.executeUpdate(requestRetryUpdate);
  expect(accepted.retryOfTaskId).toBe(first?.taskId);
  const result = await handle.result();
  expect(result).toMatchObject({
    documentId,
    taskId: accepted.taskId,
    status: 'SUCCESS',
    chunkCount: 3,
    duplicate: false,
  });
  const second = prepares.filter((p) => p.documentId === documentId)[0];
  expect(second).toMatchObject({
    documentId,
    taskId: accepted.taskId,
    retryOfTaskId: first?.taskId,
    source: { objectKey: `inbox/${documentId}.md` },
  });
  expect(stageCalls.filter((c) => c.documentId === documentId)).toHaveLength(STAGES.length);
  // Only the run that registered a document notifies.
  expect(notified.filter((n) => n.documentId === documentId).map((n) => n.status)).toEqual(['SUCCESS']);
});

it('answers content the dataset already has with that document, running nothing', async () => {
  const documentId = randomUUID();
  const existing = randomUUID();
  registrationAnswers.set(documentId, [
    (input) => ({
      kind: 'duplicate',
      taskId: input.taskId,
      documentId: existing,
      status: 'SUCCESS',
      failureCode: null,
    }),
  ]);
  const result = await (await startFromSource(documentId)).result();
  expect(result).toMatchObject({ documentId: existing, status: 'SUCCESS', duplicate: true, failureCode: null });
  expect(stageCalls.filter((c) => c.documentId === documentId || c.documentId === existing)).toHaveLength(0);
  expect(prepares.filter((p) => p.documentId === documentId)).toHaveLength(0);
});

it('copies the source in a normal activity that heartbeats, ahead of the local prepareTask', async () => {
  const documentId = randomUUID();
  answers.set(documentId, [run]);
  const handle = await startFromSource(documentId);
  expect(await handle.result()).toMatchObject({ documentId, status: 'SUCCESS' });
  const { events } = await handle.fetchHistory();
  const scheduled = (events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    return a ? [{ type: a.activityType?.name, heartbeat: Number(a.heartbeatTimeout?.seconds ?? 0) }] : [];
  });
  // The copy can take as long as it needs while it heartbeats; a dead worker is noticed in seconds.
  expect(scheduled[0]).toEqual({ type: 'registerSource', heartbeat: 5 });
  // prepareTask stays a local activity, after it (a marker, not a scheduled activity).
  expect(scheduled.map((a) => a.type)).not.toContain('prepareTask');
  const [registration] = registrations.filter((r) => r.documentId === documentId);
  const [prepare] = prepares.filter((p) => p.documentId === documentId);
  expect(registration).toEqual(prepare);
});

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { IngestActivities } from '../../activities';
import type { PrepareInput } from '../../activities/stages/prepareTask';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import { ingestWorkflowId, type PrepareResult } from '../../contracts/ingest';
import { allPending, STAGES } from '../../contracts/stages';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import { connectNative } from '../../worker/temporalConnection';
import { STAGE_ACTIVITY } from '../../testkit/harness/faultInjection';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { WORKFLOW_BUNDLE_PATH } from '../../testkit/harness/testConfig';
import { autoPlanChunking } from '../../testkit/fakes/autoPlanStub';

// Every workflow type declares its versioning behaviour (workflows/versioningBehavior.ts), on the
// real server with the real workflow bundle and stubbed activities: a versioned worker's runs carry
// the declared behaviour, not the worker's default, and an unversioned worker (the dev stack's)
// completes every type, declaring nothing, which is all the server accepts from it.

const config = loadConfig();

/** One run of each workflow type, with what its stubbed activities need to end at once. */
const runs = [
  { type: 'ingestDocument', id: () => ingestWorkflowId(randomUUID()) },
  { type: 'deleteDocument', id: () => `delete:${randomUUID()}` },
  { type: 'sweepStuckTasks', id: () => `sweep-stuck-${randomUUID()}` },
  { type: 'sweepOrphanedObjects', id: () => `sweep-orphans-${randomUUID()}` },
  { type: 'rebuildDataset', id: () => `rebuild-dataset:${randomUUID()}` },
  { type: 'copyDocumentFields', id: () => `fields:${randomUUID()}:1` },
  { type: 'syncSource', id: () => `sync:${randomUUID()}` },
] as const;

function argsOf(type: (typeof runs)[number]['type'], workflowId: string): unknown[] {
  switch (type) {
    case 'ingestDocument':
      return [{ documentId: workflowId.slice('ingest:'.length), userId: 'u', datasetId: 'ds', taskId: 't' }];
    case 'deleteDocument':
      return [{ documentId: randomUUID() }];
    case 'sweepStuckTasks':
      return [{ stuckAfterMs: 60_000 }];
    case 'sweepOrphanedObjects':
      return [{ graceMs: 60_000 }];
    case 'rebuildDataset':
      return [{ userId: 'u', datasetId: 'ds', maxOpen: 1, retryWait: '1h' }];
    case 'copyDocumentFields':
      return [randomUUID()];
    case 'syncSource':
      return [{ sourceId: randomUUID(), userId: 'u', datasetId: 'ds', retryWait: '1h' }];
  }
}

function stubs(): Partial<IngestActivities> {
  const stage = (name: string) => async () => ({ stage: name, skipped: false, items: 1 });
  return {
    ...Object.fromEntries(STAGES.map((s) => [STAGE_ACTIVITY[s], stage(s)])),
    async prepareTask(input: PrepareInput): Promise<PrepareResult> {
      return { kind: 'run', taskId: input.taskId, stages: allPending(), inherited: [], chunkCount: 0 };
    },
    planChunking: autoPlanChunking,
    async recordTaskFailure() {},
    async notifyResult() {},
    async markDocumentDeleting() {
      return null;
    },
    async cancelIngestion() {},
    async sweepStuckTasks() {
      return { swept: [] };
    },
    async sweepOrphanedObjects() {
      return { orphanedDocuments: 0, partialWritesAborted: 0 };
    },
    async listRebuildPage() {
      return { candidates: [], skipped: 0, lastDocumentId: null };
    },
    async copyDocumentFields() {
      return null;
    },
    async diffSourcePage() {
      return { fetch: [], unchanged: 0, listed: 0, next: null };
    },
    async listVanishedEntries() {
      return [];
    },
    async recordSyncReport() {},
  } as Partial<IngestActivities>;
}

let connection: NativeConnection;
let client: Client;
const running: { worker: Worker; done: Promise<void> }[] = [];

async function startWorkers(
  taskQueue: string,
  deployment: Pick<WorkerOptions, 'workerDeploymentOptions'>,
): Promise<void> {
  const activities = stubs();
  for (const queue of [taskQueue, embeddingTaskQueue(taskQueue)]) {
    const worker = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: queue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities,
      ...deployment,
    });
    running.push({ worker, done: worker.run() });
  }
}

/** Starts one run of each type and returns the versioning behaviour each closed with (0 = none). */
async function behaviourOfEachType(taskQueue: string): Promise<Record<string, number>> {
  const behaviours: Record<string, number> = {};
  for (const { type, id } of runs) {
    const workflowId = id();
    const handle = await client.workflow.start(type, { workflowId, taskQueue, args: argsOf(type, workflowId) });
    await handle.result();
    behaviours[type] = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo?.behavior ?? 0;
  }
  return behaviours;
}

beforeAll(async () => {
  installQuietRuntime();
  connection = await connectNative(config.temporal.connection);
  client = new Client({
    connection: await connectTemporal(config.temporal.connection),
    namespace: config.temporal.namespace,
  });
});

afterAll(async () => {
  for (const { worker } of running) worker.shutdown();
  await Promise.all(running.map((r) => r.done));
  await connection.close();
  await client.connection.close();
});

it('covers every workflow type the worker registers', () => {
  // Read, not imported: workflow code runs only inside a workflow sandbox.
  const index = readFileSync(path.join(__dirname, '..', '..', 'workflows', 'index.ts'), 'utf8');
  const exported = [...index.matchAll(/^export \{ (\w+) \} from/gm)].map((m) => m[1]);
  expect(exported.length).toBeGreaterThan(0);
  expect(runs.map((r) => r.type).sort()).toEqual(exported.sort());
});

it('runs every type on an unversioned worker, declaring no behaviour', async () => {
  const taskQueue = `wf-unversioned-${randomUUID()}`;
  await startWorkers(taskQueue, {});
  expect(await behaviourOfEachType(taskQueue)).toEqual({
    ingestDocument: 0,
    deleteDocument: 0,
    sweepStuckTasks: 0,
    sweepOrphanedObjects: 0,
    rebuildDataset: 0,
    copyDocumentFields: 0,
    syncSource: 0,
  });
});

it("gives each run on a versioned worker its type's declared behaviour, not the worker's default", async () => {
  const taskQueue = `wf-versioned-${randomUUID()}`;
  const deploymentName = `sluice-behaviour-${randomUUID().slice(0, 8)}`;
  // The default is AUTO_UPGRADE here so that only the declarations can make a run PINNED.
  await startWorkers(taskQueue, {
    workerDeploymentOptions: {
      useWorkerVersioning: true,
      version: { deploymentName, buildId: 'b1' },
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: config.temporal.namespace,
        deploymentName,
        buildId: 'b1',
        identity: 'versioningBehavior.test',
      });
      break;
    } catch (error) {
      // Refused until the version's pollers have reached the server.
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const PINNED = 1;
  expect(await behaviourOfEachType(taskQueue)).toEqual({
    ingestDocument: PINNED,
    deleteDocument: PINNED,
    sweepStuckTasks: PINNED,
    sweepOrphanedObjects: PINNED,
    rebuildDataset: PINNED,
    copyDocumentFields: PINNED,
    syncSource: PINNED,
  });
});

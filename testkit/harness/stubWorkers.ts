import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { IngestActivities } from '../../activities';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import { connectNative } from '../../worker/temporalConnection';
import { installQuietRuntime } from './quietRuntime';
import { WORKFLOW_BUNDLE_PATH } from './testConfig';

export interface StubWorkers {
  client: Client;
  close(): Promise<void>;
}

/**
 * The real workflows on the dev server with stubbed activities: a worker on `taskQueue` and one on
 * its embedding queue (VECTORIZING runs there), as the workflow tests of one suite share them.
 */
export async function startStubWorkers(taskQueue: string, stubs: Partial<IngestActivities>): Promise<StubWorkers> {
  installQuietRuntime();
  const nativeConnection = await connectNative(loadConfig().temporal.connection);
  const workers = [
    await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
      activities: stubs,
    }),
    await Worker.create({
      connection: nativeConnection,
      taskQueue: embeddingTaskQueue(taskQueue),
      activities: stubs.vectorizing ? { vectorizing: stubs.vectorizing } : {},
    }),
  ];
  const running = Promise.all(workers.map((w) => w.run()));
  const client = new Client({ connection: await connectTemporal(loadConfig().temporal.connection) });
  return {
    client,
    async close() {
      for (const w of workers) w.shutdown();
      await running;
      await nativeConnection.close();
      await client.connection.close();
    },
  };
}

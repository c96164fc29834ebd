import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createStageActivities, type IngestActivities } from '../../activities';
import type { SluiceConfig } from '../../config/config';
import { createAdapters, type Adapters } from '../../worker/adapters';
import { activityDepsFrom } from '../../worker/createWorker';
import { ingestWorkflowId } from '../../contracts/ingest';
import { installQuietRuntime } from './quietRuntime';
import { testConfig, WORKFLOW_BUNDLE_PATH } from './testConfig';

export interface TestWorker {
  config: Readonly<SluiceConfig>;
  adapters: Adapters;
  client: Client;
  worker: Worker;
  /** Documents whose workflows this suite started: closed at shutdown so none lingers. */
  track(documentId: string): void;
  shutdown(): Promise<void>;
}

/**
 * A real worker on the real dev server, on a task queue of its own, with the real activities
 * (or some of them wrapped, to inject failures or count calls).
 */
export async function startTestWorker(
  options: {
    config?: Readonly<SluiceConfig>;
    wrapActivities?: (real: IngestActivities) => Partial<IngestActivities>;
  } = {},
): Promise<TestWorker> {
  installQuietRuntime();
  const config = options.config ?? testConfig();
  const adapters = createAdapters(config);
  const real = createStageActivities(activityDepsFrom(config, adapters));
  const activities = { ...real, ...(options.wrapActivities?.(real) ?? {}) };
  const nativeConnection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
    activities,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const tracked = new Set<string>();
  return {
    config,
    adapters,
    client,
    worker,
    track: (documentId) => tracked.add(documentId),
    async shutdown() {
      for (const documentId of tracked) {
        await client.workflow
          .getHandle(ingestWorkflowId(documentId))
          .terminate('test suite finished')
          .catch(() => undefined);
      }
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
      await adapters.close();
    },
  };
}

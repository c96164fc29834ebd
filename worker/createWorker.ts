import { log } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createStageActivities, type ActivityDeps, type IngestionRuns } from '../activities';
import type { SluiceConfig } from '../config/config';
import { createLogNotifier } from '../stores/notifier';
import { createWebhookNotifier } from '../stores/webhookNotifier';
import type { Adapters } from './adapters';
import { createTemporalIngestionRuns } from './temporalIngestionRuns';

export function activityDepsFrom(config: Readonly<SluiceConfig>, adapters: Adapters, runs: IngestionRuns): ActivityDeps {
  return {
    db: adapters.db,
    objects: adapters.objects,
    vectors: adapters.vectors,
    keywords: adapters.keywords,
    embedders: adapters.embedders,
    notifier: config.webhook
      ? createWebhookNotifier(config.webhook)
      : createLogNotifier((message, attrs) => log.info(message, attrs)),
    runs,
    settings: {
      tmpDir: config.tmpDir,
      maxFileBytes: config.maxFileBytes,
      embedBatchSize: config.embedding.batchSize,
      chunking: config.chunking,
    },
  };
}

export interface RunningWorker {
  worker: Worker;
  client: Client;
  close(): Promise<void>;
}

/**
 * config → adapters → activities → Worker. `workflowBundle` lets tests bundle the workflow
 * code once per run; `activities` lets tests wrap the real ones to inject faults or count calls.
 */
export async function createSluiceWorker(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  options: {
    workflowBundle?: WorkerOptions['workflowBundle'];
    wrapActivities?: (real: ReturnType<typeof createStageActivities>) => Partial<ReturnType<typeof createStageActivities>>;
  } = {},
): Promise<RunningWorker> {
  const nativeConnection = await NativeConnection.connect({ address: config.temporal.address });
  const clientConnection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection: clientConnection, namespace: config.temporal.namespace });
  const real = createStageActivities(activityDepsFrom(config, adapters, createTemporalIngestionRuns(client)));
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: { ...real, ...(options.wrapActivities?.(real) ?? {}) },
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
    // Two cores: a handful of concurrent activities keeps both busy without starving Postgres.
    maxConcurrentActivityTaskExecutions: 8,
    maxConcurrentWorkflowTaskExecutions: 20,
  });
  return {
    worker,
    client,
    async close() {
      await clientConnection.close();
      await nativeConnection.close();
    },
  };
}

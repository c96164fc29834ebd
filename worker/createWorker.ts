import { log } from '@temporalio/activity';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createStageActivities, type ActivityDeps } from '../activities';
import type { SluiceConfig } from '../config/config';
import { singleEmbedderResolver } from '../embedders/embedderResolver';
import { createLogNotifier } from '../stores/notifier';
import type { Adapters } from './adapters';

export function activityDepsFrom(config: Readonly<SluiceConfig>, adapters: Adapters): ActivityDeps {
  return {
    db: adapters.db,
    objects: adapters.objects,
    vectors: adapters.vectors,
    keywords: adapters.keywords,
    embedders: singleEmbedderResolver(adapters.embedder),
    notifier: createLogNotifier((message, attrs) => log.info(message, attrs)),
    settings: {
      tmpDir: config.tmpDir,
      maxFileBytes: config.maxFileBytes,
      embedBatchSize: config.embedding.batchSize,
      chunking: config.chunking,
    },
  };
}

/**
 * config → adapters → activities → Worker. `workflowBundle` lets tests bundle the workflow
 * code once per run instead of once per worker.
 */
export async function createSluiceWorker(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  options: { workflowBundle?: WorkerOptions['workflowBundle']; identity?: string } = {},
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const activities = createStageActivities(activityDepsFrom(config, adapters));
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities,
    identity: options.identity,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : { workflowsPath: require.resolve('../workflows') }),
    // Two cores: a handful of concurrent activities keeps both busy without starving Postgres.
    maxConcurrentActivityTaskExecutions: 8,
    maxConcurrentWorkflowTaskExecutions: 20,
  });
  return { worker, connection };
}

import { Client, Connection } from '@temporalio/client';
import { Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createStageActivities } from '../activities';
import { activityDepsFrom } from '../composition/activityDeps';
import type { SluiceConfig } from '../config/config';
import { embeddingTaskQueue, enrichmentTaskQueue } from '../contracts/taskQueues';
import { createCpuPool } from '../cpuPool/pool';
import type { Adapters } from '../composition/adapters';
import { createTemporalIngestionRuns } from './temporalIngestionRuns';
import { serverNamesByPort } from './serverNames';
import { waitingReporter } from './waitingReporter';
import { WorkerGroup } from './workerGroup';
import { connectNative } from './temporalConnection';
import { deploymentOptions } from './deploymentOptions';
import { connectionFailure, connectionOptions } from '../config/temporalConnectionOptions';
import { workflowSource } from './workflowBundle';

/**
 * The SDK forwards at most one heartbeat per this interval (or per 80 % of the heartbeatTimeout,
 * if shorter). Stages beat every second and time out after 5 s without one
 * (workflows/activityOptions.ts): forwarding every beat, the server hears from a live attempt
 * every second, so a stall of up to 4 s (timeout minus this interval) is survived, as with the
 * former 2 s here and 6 s there, while a dead worker is noticed up to 1 s sooner. The price is one
 * server write per second of a stage running longer than 2 s (activities/heartbeat.ts: shorter
 * attempts do not beat at all).
 */
const HEARTBEAT_THROTTLE = '1 second';

/**
 * On SIGTERM (or SIGINT) the SDK stops polling and gives running activities this long to finish,
 * then cancels them: the batch stages fail their attempt as retryable at their next batch
 * (activities/heartbeat.ts reportProgress), so another worker takes it over at once instead of
 * after the heartbeat timeout. An attempt that cannot stop (one waiting on a parse thread) is left
 * behind after SHUTDOWN_FORCE_TIME: the process exits and the server retries it after the
 * heartbeat timeout, as after a crash.
 */
const SHUTDOWN_GRACE_TIME = '1 second';
const SHUTDOWN_FORCE_TIME = '10 seconds';

export interface RunningWorker {
  /** Both task queues' workers of this process: run(), runUntil() and shutdown() act on both. */
  worker: WorkerGroup;
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
    wrapActivities?: (
      real: ReturnType<typeof createStageActivities>,
    ) => Partial<ReturnType<typeof createStageActivities>>;
  } = {},
): Promise<RunningWorker> {
  const [nativeConnection, clientConnection] = await Promise.all([
    connectNative(config.temporal.connection),
    Connection.connect(connectionOptions(config.temporal.connection)).catch((error: unknown) => {
      throw connectionFailure(config.temporal.connection, error);
    }),
  ]);
  const client = new Client({ connection: clientConnection, namespace: config.temporal.namespace });
  // Threads start loading the parsers now, so the first document finds them warm.
  const cpu = createCpuPool({
    threads: config.worker.cpuThreads,
    limits: config.parsing,
    onError: (error) =>
      Runtime.instance().logger.error('a CPU pool thread failed outside any task', { error: error.message }),
  });
  try {
    const real = createStageActivities(activityDepsFrom(config, adapters, createTemporalIngestionRuns(client), cpu));
    const activities = { ...real, ...(options.wrapActivities?.(real) ?? {}) };
    // Every queue's activities tell their run when they fail and will be retried (worker/waitingReporter.ts).
    const interceptors = { activity: [waitingReporter(client, serverNamesByPort(config))] };
    const { queues } = config.worker;
    const main =
      queues === 'embedding' || queues === 'enrichment'
        ? null
        : await Worker.create({
            connection: nativeConnection,
            namespace: config.temporal.namespace,
            taskQueue: config.temporal.taskQueue,
            activities,
            interceptors,
            ...deploymentOptions(config.temporal),
            ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : await workflowSource()),
            maxConcurrentActivityTaskExecutions: config.worker.activitySlots,
            maxConcurrentWorkflowTaskExecutions: config.worker.workflowSlots,
            // Local stages are the same work as the normal ones (their CPU part queues for the same
            // pool): the same cap, not the SDK's default of 100.
            maxConcurrentLocalActivityExecutions: config.worker.activitySlots,
            maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
            shutdownGraceTime: SHUTDOWN_GRACE_TIME,
            shutdownForceTime: SHUTDOWN_FORCE_TIME,
          });
    // VECTORIZING only, on its own queue (the workflow sends it there): a slow or rate-limited
    // provider holds these slots and no others, so parsing and indexing keep moving.
    const embedding =
      queues === 'ingest' || queues === 'enrichment'
        ? null
        : await Worker.create({
            connection: nativeConnection,
            namespace: config.temporal.namespace,
            taskQueue: embeddingTaskQueue(config.temporal.taskQueue),
            activities: { vectorizing: activities.vectorizing },
            interceptors,
            // The same version as the ingest queue's: a pinned run's VECTORIZING goes to its own release.
            ...deploymentOptions(config.temporal),
            maxConcurrentActivityTaskExecutions: config.worker.embedding.activitySlots,
            maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
            shutdownGraceTime: SHUTDOWN_GRACE_TIME,
            shutdownForceTime: SHUTDOWN_FORCE_TIME,
            ...(config.worker.embedding.activitiesPerSecond
              ? { maxTaskQueueActivitiesPerSecond: config.worker.embedding.activitiesPerSecond }
              : {}),
          });
    // Chat and vision calls, on their own queue beside the embedding one and polled by the same
    // processes (and by `enrichment`-only ones, which scale on its backlog): a slow or
    // rate-limited model holds only these slots.
    const enrichment =
      queues === 'ingest'
        ? null
        : await Worker.create({
            connection: nativeConnection,
            namespace: config.temporal.namespace,
            taskQueue: enrichmentTaskQueue(config.temporal.taskQueue),
            activities: { enrichChunks: activities.enrichChunks, enrichMarkdown: activities.enrichMarkdown },
            interceptors,
            ...deploymentOptions(config.temporal),
            maxConcurrentActivityTaskExecutions: config.enrichment.activitySlots,
            maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
            shutdownGraceTime: SHUTDOWN_GRACE_TIME,
            shutdownForceTime: SHUTDOWN_FORCE_TIME,
            ...(config.enrichment.activitiesPerSecond
              ? { maxTaskQueueActivitiesPerSecond: config.enrichment.activitiesPerSecond }
              : {}),
          });
    return {
      worker: new WorkerGroup([main, embedding, enrichment].filter((w): w is Worker => w !== null)),
      client,
      async close() {
        await cpu.close();
        await clientConnection.close();
        await nativeConnection.close();
      },
    };
  } catch (error) {
    // Closed here too, so a start-up retried while the server is unavailable leaks no connection.
    await cpu.close();
    await clientConnection.close().catch(() => undefined);
    await nativeConnection.close().catch(() => undefined);
    throw error;
  }
}

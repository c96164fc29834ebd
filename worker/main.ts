import { Runtime } from '@temporalio/worker';
import { loadConfig } from '../config/config';
import { embeddingTaskQueue } from '../contracts/taskQueues';
import { createAdapters, prepareAdapters } from '../composition/adapters';
import { untilAvailable } from '../composition/untilAvailable';
import { createSluiceWorker } from './createWorker';
import { installRuntimeLogging } from './runtimeLogging';
import { ensureSweepSchedule } from './sweepSchedule';
import { startHealthServer, type HealthServer } from './healthServer';

/** The worker process: adapters from composition/, the activities and Workers on them. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  installRuntimeLogging(config.logLevel, { prometheusBindAddress: config.metrics.workerBindAddress });
  const warn = (message: string) => Runtime.instance().logger.warn(message);
  const adapters = createAdapters(config, warn);
  try {
    // A replacement for a crashed worker should poll as early as it can: the schema and the
    // stores are made ready while the Workers connect and load the workflow bundle (which waits
    // mostly on the SDK's workflow thread). Nothing polls before both are done: run() comes after.
    // A worker started while Postgres or Temporal is down (a crashed one's replacement during an
    // outage) waits for them instead of exiting.
    const ready = untilAvailable('preparing the schema and stores', () => prepareAdapters(adapters), warn);
    const creating = untilAvailable('connecting to Temporal', () => createSluiceWorker(config, adapters), warn);
    const [readiness, created] = await Promise.allSettled([ready, creating]);
    if (created.status === 'fulfilled' && readiness.status === 'rejected') await created.value.close();
    if (readiness.status === 'rejected') throw readiness.reason;
    if (created.status === 'rejected') throw created.reason;
    const running = created.value;
    await untilAvailable('ensuring the sweep schedule', () => ensureSweepSchedule(running.client, config), warn);
    const { queues } = config.worker;
    const polled = [
      queues !== 'embedding' ? config.temporal.taskQueue : null,
      queues !== 'ingest' ? embeddingTaskQueue(config.temporal.taskQueue) : null,
    ].filter(Boolean);
    const { deployment } = config.temporal;
    const version = deployment ? ` as ${deployment.name} build ${deployment.buildId}` : '';
    console.log(
      `sluice worker polling ${polled.join(' and ')} on ${config.temporal.address}${version} (Web UI: ${config.temporal.uiUrl})`,
    );
    let health: HealthServer | null = null;
    try {
      const { healthBind } = config.worker;
      if (healthBind !== null) {
        health = await startHealthServer(healthBind, () =>
          running.worker.workers.map((w) => ({ taskQueue: w.options.taskQueue, state: w.getState() })),
        );
      }
      // Worker.run() resolves after SIGINT/SIGTERM once in-flight tasks are finished or handed
      // back (createWorker.ts SHUTDOWN_GRACE_TIME); it rejects if one would not stop in time.
      await running.worker.run();
    } finally {
      await health?.close();
      await running.close();
    }
  } finally {
    await adapters.close();
  }
}

if (require.main === module) {
  runWorker().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

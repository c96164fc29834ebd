import type { Client } from '@temporalio/client';
import type { IngestActivities } from '../../activities';
import type { SluiceConfig } from '../../config/config';
import { ingestWorkflowId } from '../../contracts/ingest';
import { createAdapters, type Adapters } from '../../composition/adapters';
import { createSluiceWorker } from '../../worker/createWorker';
import type { WorkerGroup } from '../../worker/workerGroup';
import { installQuietRuntime } from './quietRuntime';
import { testConfig, WORKFLOW_BUNDLE_PATH } from './testConfig';

export interface TestWorker {
  config: Readonly<SluiceConfig>;
  adapters: Adapters;
  client: Client;
  worker: WorkerGroup;
  /** Documents whose workflows this suite started: closed at shutdown so none lingers. */
  track(documentId: string): void;
  shutdown(): Promise<void>;
}

/**
 * A real worker on the real dev server, on a task queue of its own, built by the production
 * composition root, with the real activities (or some wrapped, to inject faults or count calls).
 */
export async function startTestWorker(
  options: {
    config?: Readonly<SluiceConfig>;
    adapters?: (config: Readonly<SluiceConfig>) => Adapters;
    wrapActivities?: (real: IngestActivities) => Partial<IngestActivities>;
  } = {},
): Promise<TestWorker> {
  installQuietRuntime();
  const config = options.config ?? testConfig();
  const adapters = options.adapters?.(config) ?? createAdapters(config);
  await adapters.ensureReady();
  const running = await createSluiceWorker(config, adapters, {
    workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
    wrapActivities: options.wrapActivities,
  });
  const done = running.worker.run();
  const tracked = new Set<string>();
  return {
    config,
    adapters,
    client: running.client,
    worker: running.worker,
    track: (documentId) => tracked.add(documentId),
    async shutdown() {
      for (const documentId of tracked) {
        await running.client.workflow
          .getHandle(ingestWorkflowId(documentId))
          .terminate('test suite finished')
          .catch(() => undefined);
      }
      running.worker.shutdown();
      await done;
      await running.close();
      await adapters.close();
    },
  };
}

import { log } from '@temporalio/activity';
import type { ActivityDeps, IngestionRuns } from '../activities';
import type { SluiceConfig } from '../config/config';
import type { CpuPool } from '../cpuPool/pool';
import { createLogNotifier } from '../stores/notifier';
import { createWebhookNotifier } from '../stores/webhookNotifier';
import type { Adapters } from './adapters';

/** config + adapters → what the activities run on (the services the worker composes). */
export function activityDepsFrom(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  runs: IngestionRuns,
  cpu: CpuPool,
): ActivityDeps {
  return {
    db: adapters.db,
    objects: adapters.objects,
    vectors: adapters.vectors,
    keywords: adapters.keywords,
    embedders: adapters.embedders,
    languageEmbedders: adapters.languageEmbedders,
    notifier: config.webhook
      ? createWebhookNotifier({ ...config.webhook, outbound: config.outbound })
      : createLogNotifier((message, attrs) => log.info(message, attrs)),
    runs,
    cpu,
    settings: {
      tmpDir: config.tmpDir,
      maxFileBytes: config.maxFileBytes,
      embedBatchSize: config.embedding.batchSize,
      chunking: config.chunking,
      localStages: config.worker.localStages,
      quota: config.quota,
      objectBucket: config.stores.objectStore.kind === 's3' ? config.stores.objectStore.bucket : null,
    },
  };
}

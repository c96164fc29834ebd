import { log } from '@temporalio/activity';
import type { ActivityDeps, IngestionRuns } from '../activities';
import type { SluiceConfig } from '../config/config';
import type { CpuPool } from '../cpuPool/pool';
import { createLogNotifier } from '../stores/notifier';
import { createWebhookNotifier } from '../stores/webhookNotifier';
import type { Adapters } from './adapters';
import { createParserServiceClient } from '../parserService/parserServiceClient';

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
    notifier: config.webhook
      ? createWebhookNotifier({ ...config.webhook, outbound: config.outbound })
      : createLogNotifier((message, attrs) => log.info(message, attrs)),
    runs,
    cpu,
    parserService: config.parserService && {
      client: createParserServiceClient({
        baseUrl: config.parserService.url,
        token: config.parserService.token,
        outbound: config.outbound,
      }),
      timeoutMs: config.parserService.timeoutMs,
      pollMs: config.parserService.pollMs,
      outageMs: config.parserService.outageMs,
      sourceUrlTtlSeconds: config.parserService.sourceUrlTtlSeconds,
    },
    settings: {
      tmpDir: config.tmpDir,
      maxFileBytes: config.maxFileBytes,
      maxMarkdownBytes: config.parsing.markdown.maxBytes,
      embedBatchSize: config.embedding.batchSize,
      chunking: config.chunking,
      localStages: config.worker.localStages,
      quota: config.quota,
      objectBucket: config.stores.objectStore.kind === 's3' ? config.stores.objectStore.bucket : null,
    },
  };
}

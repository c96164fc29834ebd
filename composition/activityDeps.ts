import path from 'node:path';
import { log } from '@temporalio/activity';
import type { ActivityDeps, IngestionRuns } from '../activities';
import type { CallerClaims } from '../crypto/callerClaim';
import type { SluiceConfig } from '../config/config';
import type { CpuPool } from '../cpuPool/pool';
import { createLogNotifier } from '../stores/notifier';
import { createWebhookNotifier } from '../stores/webhookNotifier';
import type { Adapters } from './adapters';
import { createParserServiceClient } from '../parserService/parserServiceClient';
import { parseEncryptionKey } from '../crypto/secretBox';
import { cachingReaders } from '../stores/sources/sourceReaderCache';
import { sourceReaderOf } from '../stores/sources/sourceReaderOf';

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
    callerClaims: callerClaimsOf(config),
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
    enrichment: {
      batchSize: config.enrichment.batchSize,
      maxResponseBytes: config.enrichment.maxResponseBytes,
      maxImageBytes: config.enrichment.maxImageBytes,
      outbound: config.outbound,
      secretKeys: secretKeysOf(config),
    },
    sources: {
      readerOf: cachingReaders((row) =>
        sourceReaderOf(row, {
          folderRoots: config.sources.folderRoots,
          keys: secretKeysOf(config),
          outbound: config.outbound,
          mirrorDir: path.join(config.dataDir, 'source-mirrors'),
        }),
      ),
    },
    settings: {
      tmpDir: config.tmpDir,
      maxFileBytes: config.maxFileBytes,
      maxUncompressedBytes: config.parsing.maxUncompressedBytes,
      markdown: config.parsing.markdown,
      embedBatchSize: config.embedding.batchSize,
      passageWindows: config.embedding.passageWindows,
      maxWindowsPerDocument: config.embedding.maxWindowsPerDocument,
      chunking: config.chunking,
      localStages: config.worker.localStages,
      outageBudgetMs: config.worker.outageBudgetMs,
      fairness: config.worker.fairness,
      quota: config.quota,
      objectBucket: config.stores.objectStore.kind === 's3' ? config.stores.objectStore.bucket : null,
    },
  };
}

/** The keys model configs' API keys were sealed with: the current one first (config checked both at start-up). */
function secretKeysOf(config: Readonly<SluiceConfig>): Buffer[] {
  const current =
    config.stores.embedder.kind === 'user-config' ? config.stores.embedder.secretKey : config.api.sessionSecret;
  const keys: Buffer[] = [];
  for (const value of [current, config.secrets.previousKey]) {
    if (!value) continue;
    try {
      keys.push(parseEncryptionKey(value));
    } catch {
      // Not a key (an API-only session secret): a model key sealed under it cannot exist either.
    }
  }
  return keys;
}

/** The keys a caller claim may be signed with: SLUICE_SECRET_KEY, then the one before a rotation. */
export function callerClaimsOf(config: Readonly<SluiceConfig>): CallerClaims {
  const secrets = [config.api.sessionSecret, config.secrets.previousKey].filter((k): k is string => k !== null);
  return { required: config.secrets.requireCallerClaim, secrets };
}

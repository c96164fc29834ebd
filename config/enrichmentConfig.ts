import { z } from 'zod';
import type { EnvOf } from './envShape';

/** Enrichment through chat and vision models (docs/enrichment.md): batching, the queue's limits, the response cap. */
export const enrichmentEnv = {
  SLUICE_ENRICH_BATCH_SIZE: z.coerce.number().int().min(1).max(64).default(8).describe('Chunks per chat request.'),
  SLUICE_ENRICH_ACTIVITY_SLOTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(2)
    .describe('Enrichment activities one worker runs at once (on their own queue, `<queue>-enrichment`).'),
  SLUICE_ENRICH_ACTIVITIES_PER_SECOND: z.coerce
    .number()
    .min(0)
    .default(0)
    .describe("Enrichment activities started per second across the queue's workers; 0: no limit."),
  SLUICE_ENRICH_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(256 * 1024)
    .describe("The most a model's answer may hold; a larger one fails the batch (retryable)."),
  SLUICE_VISION_MAX_IMAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(20 * 1024 * 1024)
    .default(4 * 1024 * 1024)
    .describe(
      'Largest image sent to a VISION model (its request is about 4/3 of it); a larger one keeps its reference.',
    ),
};

export interface EnrichmentSettings {
  enrichment: {
    batchSize: number;
    activitySlots: number;
    activitiesPerSecond: number | null;
    maxResponseBytes: number;
    maxImageBytes: number;
  };
}

export function enrichmentSettings(e: EnvOf<typeof enrichmentEnv>): EnrichmentSettings {
  return {
    enrichment: {
      batchSize: e.SLUICE_ENRICH_BATCH_SIZE,
      activitySlots: e.SLUICE_ENRICH_ACTIVITY_SLOTS,
      activitiesPerSecond: e.SLUICE_ENRICH_ACTIVITIES_PER_SECOND > 0 ? e.SLUICE_ENRICH_ACTIVITIES_PER_SECOND : null,
      maxResponseBytes: e.SLUICE_ENRICH_MAX_RESPONSE_BYTES,
      maxImageBytes: e.SLUICE_VISION_MAX_IMAGE_BYTES,
    },
  };
}

import { z } from 'zod';
import type { EnvOf } from './envShape';

export const temporalEnv = {
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  SLUICE_TASK_QUEUE: z.string().min(1).default('sluice-ingest'),
  TEMPORAL_UI_URL: z.url().default('http://127.0.0.1:8233'),
};

export interface TemporalSettings {
  temporal: { address: string; namespace: string; taskQueue: string; uiUrl: string };
}

export function temporalSettings(e: EnvOf<typeof temporalEnv>): TemporalSettings {
  return {
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.SLUICE_TASK_QUEUE,
      uiUrl: e.TEMPORAL_UI_URL,
    },
  };
}

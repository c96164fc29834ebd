import { z } from 'zod';
import type { EnvInput } from './envInput';
import type { EnvOf } from './envShape';
import { resolveTemporal, temporalEnvSchema, type TemporalConfig } from './temporalConnectionConfig';

/** How to reach Temporal (temporalConnectionConfig.ts), which task queue to use and where its Web UI is. */
export const temporalEnv = {
  ...temporalEnvSchema.shape,
  SLUICE_TASK_QUEUE: z
    .string()
    .min(1)
    .default('sluice-ingest')
    .describe('The main task queue; VECTORIZING polls `<queue>-embedding`, enrichment `<queue>-enrichment`.'),
  TEMPORAL_UI_URL: z
    .url()
    .default('http://127.0.0.1:8233')
    .describe("Temporal's Web UI, for the links to runs (on SLUICE_TEMPORAL_UI_PORT if set)."),
};

export interface TemporalSettings {
  temporal: TemporalConfig & { taskQueue: string; uiUrl: string };
}

/**
 * `env` is the whole environment (with the stack's ports folded in): a temporal.toml profile is
 * read through Temporal's env-config package, which takes the raw variables.
 */
export function temporalSettings(
  e: EnvOf<typeof temporalEnv>,
  env: EnvInput,
  root: string,
  problems: string[],
): TemporalSettings {
  return {
    temporal: { ...resolveTemporal(env, root, problems), taskQueue: e.SLUICE_TASK_QUEUE, uiUrl: e.TEMPORAL_UI_URL },
  };
}

import type { StageInput, StageResult } from '../../contracts/ingest';
import { listActiveChunks } from '../../db/repositories/chunks';
import type { ActivityDeps } from '../deps';
import { runStage } from './stageTemplate';
import { buildTokenPlan, storeTokenPlan } from './tokenPlan';
import { orTransient } from '../transient';
import { withEnrichment } from './enrichedText';

/** PRETOKENIZE: the token plan of every active chunk of the task's set, stored by reference; all or nothing. */
export function createPretokenizeActivity(deps: ActivityDeps) {
  return async function pretokenize(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'PRETOKENIZE', (started) =>
      orTransient('PRETOKENIZE_FAILED', 'building the token plan', async () => {
        const chunks = await listActiveChunks(deps.db, {
          documentId: input.documentId,
          generation: started.chunkGeneration,
        });
        const texts = await withEnrichment(deps.db, input.documentId, chunks);
        const tokenPlanObjectKey = await storeTokenPlan(deps, input, await buildTokenPlan(deps.cpu, texts));
        return { items: chunks.length, outputs: { tokenPlanObjectKey } };
      }),
    );
  };
}

import { inGeneration } from '../../chunker/chunkGeneration';
import type { StageInput, StageResult } from '../../contracts/ingest';
import { permanentError, SluiceError } from '../../contracts/sluiceError';
import { findChunkingPlan, markPlanExecuted } from '../../db/repositories/chunkingPlans';
import { countChunks, replaceChunks } from '../../db/repositories/chunks';
import { getTask } from '../../db/repositories/tasks';
import { ObjectNotFoundError } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import { runStage } from './stageTemplate';

/**
 * CHUNKING: markdown (this run's, or the inherited one on a retry or a rebuild) → the rows of the
 * task's chunk set. A rebuild writes a new generation beside the served one, which search keeps
 * serving until the run succeeds (docs/rebuild.md).
 */
export function createChunkingActivity(deps: ActivityDeps) {
  return async function chunking(input: StageInput): Promise<StageResult> {
    return runStage(
      deps,
      input,
      'CHUNKING',
      async (task) => {
        if (!task.markdownObjectKey)
          throw permanentError('CHUNKING_FAILED', 'the task has no parsed markdown to chunk');
        let markdown: string;
        try {
          markdown = await deps.objects.getText(task.markdownObjectKey);
        } catch (error) {
          if (error instanceof ObjectNotFoundError)
            throw permanentError('CHUNKING_FAILED', `markdown object ${error.key} is missing`);
          throw error;
        }
        // The task's confirmed plan (a rebuild's is stored confirmed: activities/stages/chunkingPlan.ts); a run
        // from before plans existed has none and cuts as it always did.
        const planned = await findChunkingPlan(deps.db, input.taskId);
        if (planned?.state === 'WAIT_CONFIRM')
          throw permanentError('CHUNKING_FAILED', 'the chunking plan is still waiting for confirmation');
        let drafts;
        try {
          const plan = planned?.plan ?? task.chunkingPlan;
          drafts = plan
            ? await deps.cpu.chunkWithPlan(input.documentId, markdown, plan, {
                maxChunks: deps.settings.chunking.maxChunks ?? Number.MAX_SAFE_INTEGER,
              })
            : await deps.cpu.chunk(input.documentId, markdown, deps.settings.chunking);
        } catch (error) {
          // Classified already when a time limit or the heap cap was hit; anything else the chunker threw
          // would be thrown again by the same markdown.
          if (error instanceof SluiceError) throw error;
          throw permanentError('CHUNKING_FAILED', `chunker failed: ${String(error)}`, error);
        }
        const children = drafts.filter((d) => d.kind === 'child').length;
        if (children === 0) throw permanentError('EMPTY_DOCUMENT', 'the document has no text to chunk');
        const scope = {
          documentId: input.documentId,
          generation: task.chunkGeneration,
          userId: input.userId,
          datasetId: input.datasetId,
        };
        const { removedChunkIds } = await replaceChunks(deps.db, scope, inGeneration(drafts, task.chunkGeneration));
        await deps.vectors.deleteChunks({ userId: input.userId, datasetId: input.datasetId }, removedChunkIds);
        if (planned) await markPlanExecuted(deps.db, input.taskId, drafts.length);
        return children;
      },
      {
        itemsWhenSkipped: async () =>
          (await countChunks(deps.db, input.documentId, (await getTask(deps.db, input.taskId)).chunk_generation))
            .active,
      },
    );
  };
}

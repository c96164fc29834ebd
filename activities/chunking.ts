import { inGeneration } from '../chunker/chunkGeneration';
import type { ChunkingPlan } from '../contracts/chunkingPlan';
import type { StageInput, StageResult } from '../contracts/ingest';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import { countChunks, replaceChunks } from '../db/repositories/chunks';
import { getTask } from '../db/repositories/tasks';
import { ObjectNotFoundError } from '../stores/ports';
import type { ActivityDeps } from './deps';
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
        let drafts;
        try {
          drafts = await deps.cpu.chunk(input.documentId, markdown, chunkerOptions(deps, task.chunkingPlan));
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
        return children;
      },
      async () =>
        (await countChunks(deps.db, input.documentId, (await getTask(deps.db, input.taskId)).chunk_generation)).active,
    );
  };
}

/**
 * The chunker's options for the task: the deployment's settings, with a rebuild plan's sizes. The
 * strategies other than `general` come with plan-driven chunking (chunker/chunkWithPlan.ts, issue
 * 24); until then a plan naming one is refused rather than silently chunked another way.
 */
function chunkerOptions(deps: ActivityDeps, plan: ChunkingPlan | null): ActivityDeps['settings']['chunking'] {
  if (!plan) return deps.settings.chunking;
  if (plan.strategy !== 'general')
    throw permanentError('CHUNKING_FAILED', `the chunking strategy ${plan.strategy} is not available in this build`);
  return {
    ...deps.settings.chunking,
    maxTokens: plan.parameters.childTokens,
    overlapTokens: plan.parameters.overlapTokens,
  };
}

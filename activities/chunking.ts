import type { StageInput, StageResult } from '../contracts/ingest';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import { countChunks, replaceChunks } from '../db/repositories/chunks';
import { ObjectNotFoundError } from '../stores/ports';
import type { ActivityDeps } from './deps';
import { runStage } from './stageTemplate';

/** CHUNKING: markdown (this run's, or the inherited one on a retry) → the document's chunk rows. */
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
          drafts = await deps.cpu.chunk(input.documentId, markdown, deps.settings.chunking);
        } catch (error) {
          // Classified already when a time limit or the heap cap was hit; anything else the chunker threw
          // would be thrown again by the same markdown.
          if (error instanceof SluiceError) throw error;
          throw permanentError('CHUNKING_FAILED', `chunker failed: ${String(error)}`, error);
        }
        const children = drafts.filter((d) => d.kind === 'child').length;
        if (children === 0) throw permanentError('EMPTY_DOCUMENT', 'the document has no text to chunk');
        const scope = { documentId: input.documentId, userId: input.userId, datasetId: input.datasetId };
        const { removedChunkIds } = await replaceChunks(deps.db, scope, drafts);
        await deps.vectors.deleteChunks({ userId: input.userId, datasetId: input.datasetId }, removedChunkIds);
        return children;
      },
      async () => (await countChunks(deps.db, input.documentId)).active,
    );
  };
}

import type { StageInput, StageResult } from '../contracts/ingest';
import { SluiceError, transientError } from '../contracts/sluiceError';
import { listActiveChunks, resetChunkStatus, setChunkStatus } from '../db/repositories/chunks';
import type { ActivityDeps } from './deps';
import { reportProgress, resumePoint } from './heartbeat';
import { runStage } from './stageTemplate';
import { loadOrRebuildTokenPlan } from './tokenPlan';

const INDEX_BATCH = 200;

/**
 * KEYWORD_INDEXING: rebuild the document in the keyword index. A fresh attempt deletes the
 * document's entries first; an attempt that resumes from a heartbeat continues after the
 * last batch the previous attempt confirmed, since the delete already happened.
 */
export function createKeywordIndexingActivity(deps: ActivityDeps) {
  return async function keywordIndexing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'KEYWORD_INDEXING', async (started) => {
      const scope = { userId: input.userId, datasetId: input.datasetId };
      await step('ENSURE_INDEX_FAILED', 'ensuring the keyword index', () => deps.keywords.ensureIndex());
      // The active chunks, read once: they are what the plan must cover and what gets indexed.
      const active = await listActiveChunks(deps.db, input.documentId);
      const plan = await loadOrRebuildTokenPlan(deps, input, started.tokenPlanObjectKey, active);
      const progress = resumePoint();
      if (progress.lastChunkIndex < 0) {
        await step('KEYWORD_DELETE_FAILED', 'deleting old keyword entries', () => deps.keywords.deleteDocument(scope, input.documentId));
        await resetChunkStatus(deps.db, input.documentId, 'keyword_status');
      }
      const chunks = active.filter((c) => c.chunk_index > progress.lastChunkIndex);
      for (let i = 0; i < chunks.length; i += INDEX_BATCH) {
        const batch = chunks.slice(i, i + INDEX_BATCH);
        const entries = batch.map((c) => ({
          chunkId: c.chunk_id,
          documentId: input.documentId,
          fileName: started.fileName,
          text: c.text,
          tokens: plan.get(c.chunk_id) ?? [],
        }));
        const { failedChunkIds } = await step('KEYWORD_INDEXING_FAILED', 'bulk indexing', () => deps.keywords.bulkIndex(scope, entries));
        if (failedChunkIds.length > 0) {
          // Best effort: leave no half-written document behind; the retry rebuilds it whole.
          await deps.keywords.deleteDocument(scope, input.documentId).catch(() => undefined);
          throw transientError('KEYWORD_INDEXING_FAILED', `${failedChunkIds.length} entries were refused: ${failedChunkIds.slice(0, 10).join(', ')}`);
        }
        await setChunkStatus(deps.db, batch.map((c) => c.chunk_id), 'keyword_status', 'SUCCESS');
        progress.lastChunkIndex = (batch[batch.length - 1] as { chunk_index: number }).chunk_index;
        progress.done += batch.length;
        reportProgress(progress);
      }
      return progress.done;
    });
  };
}

async function step<T>(code: 'ENSURE_INDEX_FAILED' | 'KEYWORD_DELETE_FAILED' | 'KEYWORD_INDEXING_FAILED', what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    throw transientError(code, `${what} failed: ${String(error)}`, error);
  }
}

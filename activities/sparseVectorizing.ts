import type { SparseVector } from '../contracts/chunk';
import type { StageInput, StageResult } from '../contracts/ingest';
import { SluiceError, transientError } from '../contracts/sluiceError';
import { listPendingChunks, setChunkStatus } from '../db/repositories/chunks';
import type { ActivityDeps } from './deps';
import { reportProgress, resumePoint } from './heartbeat';
import { runStage } from './stageTemplate';
import { loadOrRebuildTokenPlan, type TokenPlan } from './tokenPlan';

const SPARSE_BATCH = 500;

/**
 * SPARSE_VECTORIZING: term-weight vectors from the token plan for chunks whose dense vector
 * exists and whose sparse vector does not. Its success is what makes the pipeline SUCCESS.
 */
export function createSparseVectorizingActivity(deps: ActivityDeps) {
  return async function sparseVectorizing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'SPARSE_VECTORIZING', async (started) => {
      const scope = { userId: input.userId, datasetId: input.datasetId };
      const plan = await loadOrRebuildTokenPlan(deps, input, started.tokenPlanObjectKey);
      const progress = resumePoint();
      let writtenNow = 0;
      for (;;) {
        const pending = await listPendingChunks(deps.db, input.documentId, 'sparse_status', progress.lastChunkIndex, SPARSE_BATCH);
        if (pending.length === 0) break;
        const ready = pending.filter((c) => c.dense_status === 'SUCCESS');
        // Weighted in the CPU pool, under its limits (SPARSE_VECTORIZING_FAILED when one is hit).
        const vectors = await deps.cpu.sparse(ready.map((c) => tokensOf(plan, c.chunk_id)));
        const records = ready.map((c, i) => ({ chunkId: c.chunk_id, documentId: input.documentId, sparse: vectors[i] as SparseVector }));
        try {
          await deps.vectors.upsertSparse(scope, records);
        } catch (error) {
          if (error instanceof SluiceError) throw error;
          throw transientError('SPARSE_VECTORIZING_FAILED', `sparse upsert failed: ${String(error)}`, error);
        }
        await setChunkStatus(deps.db, records.map((r) => r.chunkId), 'sparse_status', 'SUCCESS');
        writtenNow += records.length;
        progress.lastChunkIndex = (pending[pending.length - 1] as { chunk_index: number }).chunk_index;
        progress.done += records.length;
        reportProgress(progress);
        // A short page was the last one: no query to find that nothing is left.
        if (pending.length < SPARSE_BATCH) break;
      }
      return writtenNow;
    });
  };
}

/**
 * The plan was checked to cover every active chunk when it was loaded; a chunk it lacks means the
 * chunk set changed under the stage, and the retry rebuilds the plan.
 */
function tokensOf(plan: TokenPlan, chunkId: string): string[] {
  const tokens = plan.get(chunkId);
  if (!tokens) throw transientError('SPARSE_VECTORIZING_FAILED', `the token plan has no entry for chunk ${chunkId}`);
  return tokens;
}

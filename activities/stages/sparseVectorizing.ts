import type { SparseVector } from '../../contracts/chunk';
import type { StageInput, StageResult } from '../../contracts/ingest';
import { transientError } from '../../contracts/sluiceError';
import { listPendingChunks, setChunkStatus } from '../../db/repositories/chunks';
import type { ActivityDeps } from '../deps';
import { refreshCopiedFields } from './copyFields';
import { forEachPendingBatch } from './pendingBatches';
import { runStage } from './stageTemplate';
import { loadOrRebuildTokenPlan, type TokenPlan } from './tokenPlan';
import { orTransient } from '../transient';

const SPARSE_BATCH = 500;

/**
 * SPARSE_VECTORIZING: term-weight vectors from the token plan for chunks whose dense vector
 * exists and whose sparse vector does not. Its success is what makes the pipeline SUCCESS.
 */
export function createSparseVectorizingActivity(deps: ActivityDeps) {
  return async function sparseVectorizing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'SPARSE_VECTORIZING', async (started) => {
      const scope = { userId: input.userId, datasetId: input.datasetId };
      const plan = await loadOrRebuildTokenPlan(deps, input, started);
      const set = { documentId: input.documentId, generation: started.chunkGeneration };
      const pages = {
        pageSize: SPARSE_BATCH,
        batchSize: SPARSE_BATCH,
        readPage: (afterIndex: number, limit: number) =>
          listPendingChunks(deps.db, set, 'sparse_status', afterIndex, limit),
      };
      const written = await forEachPendingBatch(pages, async (pending) => {
        const ready = pending.filter((c) => c.dense_status === 'SUCCESS');
        // Weighted in the CPU pool, under its limits (SPARSE_VECTORIZING_FAILED when one is hit).
        const vectors = await deps.cpu.sparse(ready.map((c) => tokensOf(plan, c.chunk_id)));
        const records = ready.map((c, i) => ({
          chunkId: c.chunk_id,
          documentId: input.documentId,
          sparse: vectors[i] as SparseVector,
        }));
        await orTransient('SPARSE_VECTORIZING_FAILED', 'sparse upsert', () =>
          deps.vectors.upsertSparse(scope, records),
        );
        await setChunkStatus(
          deps.db,
          records.map((r) => r.chunkId),
          'sparse_status',
          'SUCCESS',
        );
        return records.length;
      });
      // Points written without the document's fields get them (a store that joins Postgres keeps none).
      await refreshCopiedFields(deps, 'vectors', scope, input.documentId, null);
      return written;
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
